import { pickCoding } from './content-coding';

describe('pickCoding (Accept-Encoding negotiation)', () => {
  const both = ['br', 'gzip'] as const;

  it('prefers brotli when the browser takes both with the same weight, whatever its order', () => {
    expect(pickCoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(pickCoding('br, gzip', both)).toBe('br');
  });

  it('follows the weights the client gives', () => {
    expect(pickCoding('br;q=0.5, gzip;q=0.8', both)).toBe('gzip');
    expect(pickCoding('br;q=0, gzip', both)).toBe('gzip');
    expect(pickCoding('gzip;q=0, br;q=0.1', both)).toBe('br');
  });

  it('answers uncompressed when nothing acceptable is offered', () => {
    expect(pickCoding(undefined, both)).toBeNull();
    expect(pickCoding('', both)).toBeNull();
    expect(pickCoding('identity', both)).toBeNull();
    expect(pickCoding('deflate', both)).toBeNull();
    expect(pickCoding('br;q=0, gzip;q=0', both)).toBeNull();
    expect(pickCoding('*;q=0', both)).toBeNull();
    expect(pickCoding('br;q=abc', ['br'])).toBeNull();
  });

  it('reads * and x-gzip, and only offers the copies that exist', () => {
    expect(pickCoding('*', both)).toBe('br');
    expect(pickCoding('gzip;q=0.2, *;q=0.9', both)).toBe('br');
    expect(pickCoding('x-gzip', both)).toBe('gzip');
    expect(pickCoding('gzip, br', ['gzip'])).toBe('gzip');
    expect(pickCoding('br', ['gzip'])).toBeNull();
  });
});
