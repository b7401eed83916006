import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import deviceList from './data/esim-devices.json';
import { DeviceCatalogue } from './device-catalogue';
import { DeviceKey } from './device-key';

const root = path.resolve(__dirname, '../../../..');
const script = path.join(root, 'scripts/refresh-devices.mjs');
const csv = path.join(__dirname, 'data/esim-devices.csv');

describe('the device list', () => {
  const catalogue = new DeviceCatalogue(deviceList);

  it('reads models as browsers and people write them', () => {
    expect(DeviceKey.candidates('SM-G981B/DS')).toEqual(['smg981bds', 'smg981']);
    expect(DeviceKey.candidates('Samsung Galaxy S20+')).toEqual(['samsunggalaxys20plus', 'galaxys20plus']);
    expect(DeviceKey.model('moto g(8)')).toBe(DeviceKey.model('Moto G8'));
    expect(DeviceKey.brand('Redmi')).toBe('xiaomi');
  });

  it('holds the phones the legal text names, and phones without eSIM', () => {
    expect(catalogue.answer('iPhone XS')).toEqual({ compatible: true, model: 'iPhone XS', name: 'iPhone XS' });
    expect(catalogue.answer('iPhone 8').compatible).toBe(false);
    expect(catalogue.answer('SM-G981U1').name).toBe('Galaxy S20');
    expect(catalogue.answer('SM-G960F').name).toBe('Galaxy S9');
    expect(catalogue.answer('Pixel 3').compatible).toBe(true);
    expect(catalogue.answer('Pixel 2').compatible).toBe(false);
    expect(catalogue.answer('Galaxy S20 FE')).toEqual({ compatible: null, model: 'Galaxy S20 FE', name: null });
  });

  it('is what scripts/refresh-devices.mjs makes of its source', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'devices-')), 'devices.json');
    execFileSync(process.execPath, [script, csv, '--out', out], { cwd: root });
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toEqual(deviceList);
  });

  it('refuses a source where one identifier names two phones of a brand, or a bad verdict', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devices-'));
    const run = (text: string) => {
      fs.writeFileSync(path.join(dir, 'in.csv'), text);
      return spawnSync(process.execPath, [script, path.join(dir, 'in.csv'), '--out', path.join(dir, 'out.json')], { cwd: root, encoding: 'utf8' });
    };
    const clash = run('brand,name,esim,models\nSamsung,Galaxy S20,yes,SM-G981\nSamsung,Galaxy S20 copy,no,sm-g981\n');
    expect(clash.status).toBe(1);
    expect(clash.stderr).toContain('line 3: "smg981" already names Samsung Galaxy S20');
    const verdict = run('brand,name,esim,models\nSamsung,Galaxy S20,maybe,\n');
    expect(verdict.status).toBe(1);
    expect(verdict.stderr).toContain('esim is yes or no');
    expect(fs.existsSync(path.join(dir, 'out.json'))).toBe(false);
  });
});
