import { describe, expect, it } from 'vitest';
import { apiParamsOf, lookupFromAddress, lookupFromState } from './lookupQuery';

const saved = { kind: 'phone', value: '11910000001', flow: 'cloud', outcome: '', from: '', to: '', page: 2 };

describe("the look-up's history state", () => {
  it('reads back what the page saved', () => {
    expect(lookupFromState({ lookup: saved })).toEqual(saved);
  });

  it('ignores a state that is not a look-up, or one that cannot be searched', () => {
    expect(lookupFromState(null)).toBeNull();
    expect(lookupFromState({ lookup: '?phone=11910000001' })).toBeNull();
    expect(lookupFromState({ lookup: { ...saved, kind: 'cpf' } })).toBeNull();
    expect(lookupFromState({ lookup: { ...saved, value: '' } })).toBeNull();
  });

  it('falls back to the first page when the saved page is not a positive whole number', () => {
    expect(lookupFromState({ lookup: { ...saved, page: -3 } })?.page).toBe(1);
    expect(lookupFromState({ lookup: { ...saved, page: 'dois' } })?.page).toBe(1);
  });

  it("reads an old link's address and sends the API only the fields that are set", () => {
    const query = lookupFromAddress(new URLSearchParams('serial=EXA-0000-0001&outcome=refused&page=3'));
    expect(query).toEqual({ kind: 'serial', value: 'EXA-0000-0001', flow: '', outcome: 'refused', from: '', to: '', page: 3 });
    expect(query && apiParamsOf(query).toString()).toBe('serial=EXA-0000-0001&outcome=refused&page=3');
    expect(lookupFromAddress(new URLSearchParams('flow=cloud'))).toBeNull();
  });
});
