import { findRecord, NoteRecord, parseNotes, withRecord } from './line-notes';

const record = (ref: string, over: Partial<NoteRecord> = {}): NoteRecord => ({
  ref,
  kind: 'refill',
  state: 'pending',
  mb: 1024,
  days: 30,
  at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('our records in a KeepGo line’s notes', () => {
  it('keeps whatever else the notes say and replaces the record of the same reference', () => {
    let notes = withRecord(parseNotes('customer called on Monday\ndg:not json'), record('r1'));
    notes = withRecord(parseNotes(notes), record('r2'));
    notes = withRecord(parseNotes(notes), record('r1', { state: 'done', tx: 'T1', bundle: 7 }));
    const parsed = parseNotes(notes);
    expect(parsed.text).toEqual(['customer called on Monday', 'dg:not json']);
    expect(parsed.records.map((r) => [r.ref, r.state])).toEqual([
      ['r2', 'pending'],
      ['r1', 'done'],
    ]);
    expect(findRecord(parsed, 'r1')).toMatchObject({ tx: 'T1', bundle: 7 });
    expect(findRecord(parsed, 'r3')).toBeUndefined();
  });

  it('reads empty notes and keeps only the latest records', () => {
    expect(parseNotes(null)).toEqual({ text: [], records: [] });
    let notes = '';
    for (let i = 0; i < 30; i++) notes = withRecord(parseNotes(notes), record(`r${i}`));
    const parsed = parseNotes(notes);
    expect(parsed.records).toHaveLength(20);
    expect(parsed.records[0].ref).toBe('r10');
  });
});
