// The browser name sent upstream as X-Device-Id (spec §7: "detected browser name").

const RULES: ReadonlyArray<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

/** The first rule that matches the user agent; order matters (Edge and Opera say Chrome too). */
export function detectBrowser(userAgent: string): string {
  for (const [pattern, name] of RULES) {
    if (pattern.test(userAgent)) return name;
  }
  return 'Desconhecido';
}
