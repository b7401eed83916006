import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { OfferwallSettings } from './offerwall-settings';

/** Says loudly, at start-up, which walls are emulated and which are off. */
@Injectable()
export class OfferwallModeLog implements OnApplicationBootstrap {
  private readonly log = new Logger('Offerwalls');

  constructor(private readonly settings: OfferwallSettings) {}

  onApplicationBootstrap(): void {
    for (const wall of this.settings.enabled()) {
      if (wall.sandbox) {
        this.log.warn(
          `SANDBOX: ${wall.provider.name} has no credentials and is EMULATED locally; its postbacks are signed with public sandbox secrets. Not for real users.`,
        );
      } else {
        this.log.log(`${wall.provider.name} is live${wall.allowedIps ? ' (source IP allow-list on)' : ''}`);
      }
    }
    for (const { id, reason } of this.settings.disabled) this.log.error(`${id} is DISABLED: ${reason}`);
  }
}
