/** Email campaigns by id. */
import type { Campaign } from '../model.ts';

export class CampaignStore {
  readonly #campaigns = new Map<string, Campaign>();

  add(campaign: Campaign): void {
    this.#campaigns.set(campaign.id, campaign);
  }

  get(id: string): Campaign | undefined {
    return this.#campaigns.get(id);
  }
}
