// Our own drawing of a computer's rating label, with the serial number highlighted.

export function SerialLabel() {
  return (
    <svg
      className="serial-label"
      viewBox="0 0 320 190"
      width="320"
      height="190"
      role="img"
      aria-label="Exemplo de etiqueta do computador com o número de série (S/N) em destaque"
    >
      <rect x="4" y="4" width="312" height="182" rx="10" fill="#ffffff" stroke="#8a97ab" strokeWidth="2" />
      <rect x="4" y="4" width="312" height="34" rx="10" fill="#e6ecf4" />
      <rect x="4" y="28" width="312" height="10" fill="#e6ecf4" />
      <text x="18" y="27" fontFamily="Arial, sans-serif" fontSize="15" fontWeight="700" fill="#14213d">
        Notebook Modelo 14
      </text>
      <text x="18" y="60" fontFamily="Arial, sans-serif" fontSize="11" fill="#4a5568">
        Entrada: 19 V CC, 2,1 A · Fabricado no Brasil
      </text>
      <text x="18" y="78" fontFamily="Arial, sans-serif" fontSize="11" fill="#4a5568">
        Modelo: NB14-BR · Lote 2411
      </text>
      {/* The part the visitor looks for. */}
      <rect x="12" y="90" width="296" height="44" rx="6" fill="#fff4d6" stroke="#f5a300" strokeWidth="3" />
      <text x="22" y="108" fontFamily="Arial, sans-serif" fontSize="11" fontWeight="700" fill="#5c3200">
        S/N (Número de série)
      </text>
      <text x="22" y="127" fontFamily="'Courier New', monospace" fontSize="16" fontWeight="700" fill="#14213d">
        PS2401BR00012345
      </text>
      {/* A barcode drawn as bars of varying width. */}
      <g fill="#14213d">
        {[0, 4, 6, 11, 14, 16, 21, 23, 28, 31, 33, 38, 42, 44, 49, 51, 56, 59, 61, 66, 70, 72, 77, 79, 84, 88, 90, 95].map(
          (x, i) => (
            <rect key={x} x={18 + x * 2.4} y="146" width={i % 3 === 0 ? 4 : 2} height="28" />
          ),
        )}
      </g>
      <circle cx="282" cy="160" r="16" fill="none" stroke="#8a97ab" strokeWidth="2" />
      <text x="282" y="165" textAnchor="middle" fontFamily="Arial, sans-serif" fontSize="12" fontWeight="700" fill="#8a97ab">
        CE
      </text>
    </svg>
  );
}
