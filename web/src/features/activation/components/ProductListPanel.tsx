import { shallowEqual } from '@xstate/react';
import { ActivationActor } from '../context';
import type { Platform } from '../types';
import { PRODUCT_LINES, PRODUCT_LIST_HEADING } from '../texts';
import { PRODUCT_NAMES, productTarget } from '../platform';

/** Spec panel 4: one download button per product the plan grants. */
export function ProductListPanel({ platform }: { platform: Platform }) {
  const actor = ActivationActor.useActorRef();
  const products = ActivationActor.useSelector((s) => s.context.products, shallowEqual);
  return (
    <section className="activation-panel" aria-labelledby="activation-heading">
      <h1 id="activation-heading" className="activation-heading">
        {PRODUCT_LIST_HEADING}
      </h1>
      <ul className="activation-products">
        {products.map((product) => {
          const target = productTarget(product, platform);
          return (
            <li key={product} className="activation-product">
              <img src={`/img/icon-${product}.svg`} width="40" height="40" alt="" className="activation-product__icon" />
              <span className="activation-product__text">
                <span className="activation-product__name">{PRODUCT_NAMES[product]}</span>
                <span className="activation-product__line">{PRODUCT_LINES[product]}</span>
              </span>
              <a
                className="button button--primary button--small"
                href={target.href}
                target={target.newTab ? '_blank' : undefined}
                rel={target.newTab ? 'noopener noreferrer' : undefined}
                onClick={() => actor.send({ type: 'PRODUCT_CHOSEN', product, platform })}
                aria-label={`Baixar ${PRODUCT_NAMES[product]}`}
              >
                Baixar
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
