import { Injectable } from '@nestjs/common';
import { BlacklistService } from '../../blacklist/application/blacklist.service';
import { NumberBlacklist } from '../application/ports/number-blacklist';

@Injectable()
export class BlacklistServiceAdapter extends NumberBlacklist {
  constructor(private readonly blacklists: BlacklistService) {
    super();
  }

  findBlacklisted(blacklistIds: string[], phoneNumbers: string[]): Promise<Set<string>> {
    return this.blacklists.findBlacklisted(blacklistIds, phoneNumbers);
  }
}
