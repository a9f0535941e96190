interface Props {
  /** SVG markup of one of our own illustrations (imported with ?raw). */
  svg: string;
  label: string;
  className?: string;
}

/**
 * A hero illustration drawn inline: no request on the critical path, and the page's largest
 * paint is its headline rather than a picture that arrives later.
 */
export function Illustration({ svg, label, className }: Props) {
  return <div className={className} role="img" aria-label={label} dangerouslySetInnerHTML={{ __html: svg }} />;
}
