import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadTypefaceAfterFirstPaint } from './typeface';

class FakeFontFace {
  static made: FakeFontFace[] = [];
  constructor(
    public family: string,
    public source: string,
    public descriptors: FontFaceDescriptors,
  ) {
    FakeFontFace.made.push(this);
  }
  load = vi.fn(() => Promise.resolve(this));
}

let paintCallback: ((list: { getEntriesByName: (name: string) => unknown[] }) => void) | null = null;
class FakeObserver {
  constructor(callback: typeof paintCallback) {
    paintCallback = callback;
  }
  observe = vi.fn();
  disconnect = vi.fn();
}

describe('typeface', () => {
  const added: unknown[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    FakeFontFace.made = [];
    added.length = 0;
    paintCallback = null;
    vi.stubGlobal('FontFace', FakeFontFace);
    vi.stubGlobal('PerformanceObserver', FakeObserver);
    Object.defineProperty(document, 'fonts', { configurable: true, value: { add: (face: unknown) => added.push(face) } });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('adds Inter (Latin subset, swap, all weights) once the first text is painted, not before', () => {
    loadTypefaceAfterFirstPaint();
    expect(FakeFontFace.made).toHaveLength(0);
    paintCallback?.({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) });
    expect(FakeFontFace.made).toHaveLength(1);
    const [face] = FakeFontFace.made;
    expect(face.family).toBe('Inter Variable');
    expect(face.source).toMatch(/inter-latin-wght-normal.*\.woff2/);
    expect(face.descriptors).toMatchObject({ display: 'swap', weight: '100 900', style: 'normal' });
    expect(face.descriptors.unicodeRange).toContain('U+0000-00FF');
    expect(added).toEqual([face]);
    expect(face.load).toHaveBeenCalled();
    // The fallback timer does not add it a second time.
    vi.runAllTimers();
    expect(FakeFontFace.made).toHaveLength(1);
  });

  it('loads it after the timeout when no paint is reported', () => {
    loadTypefaceAfterFirstPaint(3000);
    vi.advanceTimersByTime(2999);
    expect(FakeFontFace.made).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(FakeFontFace.made).toHaveLength(1);
  });
});
