/**
 * Our operation records inside a KeepGo line's free-text `notes` (PUT /line/{iccid}/update_notes),
 * the only place the documented API lets us store our own reference on the provider's side. Each
 * record is one line `dg:{json}`; whatever else the notes hold (an operator's text) is kept as is.
 */
export const NOTE_PREFIX = 'dg:';
/** Older records are dropped beyond this, so the notes stay short. */
const MAX_RECORDS = 20;

export interface NoteRecord {
  ref: string;
  kind: 'create' | 'refill';
  /** `pending` is written before a refill is sent; `done` once KeepGo answered. */
  state: 'pending' | 'done';
  mb: number;
  days: number | null;
  /** For a pending refill: the highest data bundle id on the line before it, to recognise the new one. */
  floor?: number;
  tx?: string | null;
  bundle?: number | null;
  at: string;
}

export interface LineNotes {
  text: string[];
  records: NoteRecord[];
}

export function parseNotes(notes: string | null | undefined): LineNotes {
  const text: string[] = [];
  const records: NoteRecord[] = [];
  for (const line of (notes ?? '').split('\n')) {
    if (line.startsWith(NOTE_PREFIX)) {
      try {
        const record = JSON.parse(line.slice(NOTE_PREFIX.length)) as NoteRecord;
        if (typeof record.ref === 'string' && (record.kind === 'create' || record.kind === 'refill')) {
          records.push(record);
          continue;
        }
      } catch {
        // Not ours after all: keep it as text.
      }
    }
    if (line !== '') text.push(line);
  }
  return { text, records };
}

/** The notes with this record in place of any earlier record of the same reference. */
export function withRecord(notes: LineNotes, record: NoteRecord): string {
  const records = [...notes.records.filter((r) => r.ref !== record.ref), record].slice(-MAX_RECORDS);
  return [...notes.text, ...records.map((r) => `${NOTE_PREFIX}${JSON.stringify(r)}`)].join('\n');
}

export function findRecord(notes: LineNotes, ref: string): NoteRecord | undefined {
  return notes.records.find((r) => r.ref === ref);
}
