import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { KEEPGO_SETTINGS, KeepGoSettings } from './keepgo-settings';

/** Says loudly, at start-up, when KeepGo is emulated. */
@Injectable()
export class KeepGoModeLog implements OnApplicationBootstrap {
  private readonly log = new Logger('KeepGo');

  constructor(@Inject(KEEPGO_SETTINGS) private readonly settings: KeepGoSettings) {}

  onApplicationBootstrap(): void {
    if (this.settings.sandbox) {
      this.log.warn(
        `SANDBOX: no KEEPGO_API_KEY/KEEPGO_ACCESS_TOKEN, KeepGo is EMULATED by the sandboxes process (${this.settings.baseUrl}); its eSIMs are not real. Not for real users.`,
      );
    } else {
      this.log.log(`KeepGo is live at ${this.settings.baseUrl}`);
    }
  }
}
