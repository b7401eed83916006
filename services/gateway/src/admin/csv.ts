/** What a spreadsheet would run as a formula if a cell started with it (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180). A text that starts like a formula gets a leading apostrophe, so that a
 * spreadsheet shows it instead of running it; numbers are written as they are (a negative
 * balance is a number, not a formula). Quotes, commas and line breaks are quoted.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, CRLF-terminated as RFC 4180 writes it. */
export function csvLine(cells: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
