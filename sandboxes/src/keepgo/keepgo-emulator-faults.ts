import { Injectable } from '@nestjs/common';

export type FaultMode = 'ok' | 'fail' | 'hang' | 'throttle';

export interface FaultSettings {
  /** `fail`: answer 503; `hang`: never answer (until the caller gives up); `throttle`: answer 429, doing nothing; `ok`: behave. */
  mode: FaultMode;
  /** How many matching requests get the fault; unset: all of them until told otherwise. */
  times?: number;
  /** Only requests whose "METHOD /path" (relative to /api/v2) contains this, e.g. "POST /line/create" or "/refill". */
  path?: string;
  /** Carry the request out first, then fail or hang: the provider did the work but the answer is lost. */
  applyEffect?: boolean;
}

export interface Fault {
  mode: 'fail' | 'hang' | 'throttle';
  applyEffect: boolean;
}

/**
 * Faults tests inject into the emulator, and what it was asked. Kept in memory: it is a test
 * instrument of one running process, not provider state.
 */
@Injectable()
export class KeepGoEmulatorFaults {
  private settings: FaultSettings = { mode: 'ok' };
  private remaining: number | null = null;
  private readonly requests = new Map<string, number>();

  set(settings: FaultSettings): void {
    this.settings = { ...settings };
    this.remaining = settings.mode === 'ok' || settings.times === undefined ? null : settings.times;
  }

  /** Back to normal behaviour, and the request counts from zero. */
  reset(): void {
    this.set({ mode: 'ok' });
    this.requests.clear();
  }

  /** Counts the request (by route, e.g. "POST /line/:iccid/refill") and says which fault, if any, it gets. */
  take(route: string, request: string): Fault | null {
    this.requests.set(route, (this.requests.get(route) ?? 0) + 1);
    const { mode, path, applyEffect } = this.settings;
    if (mode === 'ok' || (path && !request.includes(path))) return null;
    if (this.remaining !== null) {
      if (this.remaining <= 0) return null;
      this.remaining -= 1;
    }
    return { mode, applyEffect: applyEffect ?? false };
  }

  /** How many requests each route received since the last reset. */
  count(route: string): number {
    return this.requests.get(route) ?? 0;
  }

  state() {
    return { ...this.settings, remaining: this.remaining, requests: Object.fromEntries(this.requests) };
  }
}
