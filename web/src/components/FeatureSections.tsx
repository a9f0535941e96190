import type { FeatureSection } from '../content/features';

/** Feature blocks with picture and text, the picture side alternating from one to the next. */
export function FeatureSections({ sections }: { sections: readonly FeatureSection[] }) {
  return (
    <>
      {sections.map((section, index) => (
        <section
          key={section.id}
          id={section.id}
          className={`feature ${index % 2 === 1 ? 'feature--reverse' : ''}`}
          aria-labelledby={`${section.id}-title`}
        >
          <div className="container feature__inner">
            <img src={section.image} alt={section.alt} width="320" height="240" loading="lazy" className="feature__image" />
            <div className="feature__text">
              <h2 id={`${section.id}-title`}>{section.title}</h2>
              <p>{section.description}</p>
              {section.bullets && (
                <ul className="checklist">
                  {section.bullets.map((bullet) => (
                    <li key={bullet}>{bullet}</li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        </section>
      ))}
    </>
  );
}
