import { PassThrough } from 'node:stream';
import pino from 'pino';
import { prettyStream, resolveLogFormat } from './logger';

describe('log format', () => {
  it('is readable for a person at a terminal and JSON otherwise; production is always JSON', () => {
    expect(resolveLogFormat('auto', { NODE_ENV: 'development' }, true)).toBe('pretty');
    expect(resolveLogFormat('auto', { NODE_ENV: 'development' }, false)).toBe('json');
    expect(resolveLogFormat('auto', { NODE_ENV: 'production' }, true)).toBe('json');
    expect(resolveLogFormat('json', {}, true)).toBe('json');
    expect(resolveLogFormat('pretty', { NODE_ENV: 'production' }, false)).toBe('pretty');
  });

  it('pretty lines are coloured, carry the Nest context, and no JSON', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c) => (text += c));
    pino({ base: { service: 'rewards' } }, prettyStream(out)).info({ context: 'OutboxRelay', correlationId: 'c-1' }, 'relayed 3 events');
    await new Promise((r) => setImmediate(r));
    expect(text).toMatch(/\[OutboxRelay\] relayed 3 events/);
    expect(text).toContain('\u001b['); // ANSI colour
    expect(text).toContain('c-1');
    expect(text).not.toContain('"service"');
  });
});
