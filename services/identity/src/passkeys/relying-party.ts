import { Inject, Injectable } from '@nestjs/common';
import { BRAND_NAME } from '@esim/contracts';
import { CONFIG } from '@esim/platform';
import type { IdentityConfig } from '../config';

/** Who passkeys are for: the relying-party id and the expected origin, from PUBLIC_URL unless set. */
@Injectable()
export class RelyingParty {
  readonly id: string;
  readonly origin: string;
  readonly name = BRAND_NAME;

  constructor(@Inject(CONFIG) config: IdentityConfig) {
    const publicUrl = new URL(config.PUBLIC_URL);
    this.id = config.WEBAUTHN_RP_ID ?? publicUrl.hostname;
    this.origin = config.WEBAUTHN_ORIGIN ? new URL(config.WEBAUTHN_ORIGIN).origin : publicUrl.origin;
  }
}
