import type { DeviceCompatibility } from '@esim/contracts';
import { DeviceKey } from './device-key';

/** One phone of the device list (data/esim-devices.json, written by scripts/refresh-devices.mjs). */
export interface DeviceEntry {
  brand: string;
  name: string;
  esim: boolean;
  /** Identifiers browsers report for it besides its name (Samsung codes without region suffix). */
  models: string[];
}

export interface DeviceListFile {
  source: string;
  devices: DeviceEntry[];
}

/**
 * The device list, indexed by DeviceKey: answers whether a reported model holds an eSIM (null
 * when the list does not know it). A brand only settles a key two makers share.
 */
export class DeviceCatalogue {
  private readonly byKey = new Map<string, DeviceEntry[]>();

  constructor(file: DeviceListFile) {
    for (const device of file.devices) {
      const keys = new Set([device.name, ...device.models].map((m) => DeviceKey.model(m)).filter(Boolean));
      for (const key of keys) this.byKey.set(key, [...(this.byKey.get(key) ?? []), device]);
    }
  }

  /** The device a model names, or null. */
  find(model: string, brand?: string): DeviceEntry | null {
    const maker = brand ? DeviceKey.brand(brand) : null;
    for (const key of DeviceKey.candidates(model)) {
      const found = this.byKey.get(key);
      if (!found) continue;
      return (maker && found.find((d) => DeviceKey.brand(d.brand) === maker)) || found[0];
    }
    return null;
  }

  answer(model: string, brand?: string): DeviceCompatibility {
    const device = this.find(model, brand);
    return { compatible: device ? device.esim : null, model, name: device?.name ?? null };
  }
}
