/**
 * A Pix "copia e cola" code as a bank app reads it: Brazil's BR Code, the EMV merchant-presented
 * QR payload (tag, two-digit length, value) with the Pix key-less dynamic form (a `url` of the
 * charge under the GUI `br.gov.bcb.pix`), the amount in reais, and the CRC16-CCITT checksum. The
 * emulator's codes are well-formed but pay nothing: the sandbox control settles them
 * (stripe-pix.controller.ts).
 */
export function pixCode(fields: { amountMinor: number; chargeUrl: string; txid: string }): string {
  const tlv = (tag: string, value: string) => `${tag}${String(value.length).padStart(2, '0')}${value}`;
  const account = tlv('00', 'br.gov.bcb.pix') + tlv('25', fields.chargeUrl.replace(/^https?:\/\//, '').slice(0, 77));
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', account) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', (fields.amountMinor / 100).toFixed(2)) +
    tlv('58', 'BR') +
    tlv('59', 'STRIPE SANDBOX') +
    tlv('60', 'SAO PAULO') +
    tlv('62', tlv('05', fields.txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25))) +
    '6304';
  return body + crc16(body);
}

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as the BR Code specifies, in four upper-case hex digits. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
