/** Email campaigns by id, each owned by the account that created it. */
import type { Campaign } from '../model.ts';

interface Owned {
  accountId: string;
  campaign: Campaign;
}

export class CampaignStore {
  readonly #campaigns = new Map<string, Owned>();

  add(campaign: Campaign, accountId: string): void {
    this.#campaigns.set(campaign.id, { accountId, campaign });
  }

  /** The campaign when it exists and belongs to `accountId`; another account's is as unknown as a missing one. */
  get(id: string, accountId: string): Campaign | undefined {
    const owned = this.#campaigns.get(id);
    return owned?.accountId === accountId ? owned.campaign : undefined;
  }
}
