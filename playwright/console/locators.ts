// The console's parts by role and accessible name only: what a person using
// a screen reader would find, so that a suite never depends on a CSS class.
import type { Locator, Page } from '@playwright/test';

/** A state tier as the console shows it; `merged` is "What the agent sees" on a session page. */
export type Tier = 'app' | 'user' | 'session' | 'merged';

export const TIER_TITLES: Record<Tier, string> = {
  app: 'App state',
  user: 'User state',
  session: 'Session state',
  merged: 'What the agent sees',
};

/** The key as a tier's list names it: unprefixed in its own tier (`user:plan` → `plan`), prefixed in the merged view. */
export function keyInTier(tier: Tier, key: string): string {
  if (tier === 'app' && key.startsWith('app:')) return key.slice('app:'.length);
  if (tier === 'user' && key.startsWith('user:')) return key.slice('user:'.length);
  return key;
}

/** The key with its tier's prefix, as edit buttons and the merged view name it. */
export function prefixedKey(tier: Tier, key: string): string {
  const bare = keyInTier(tier, key);
  return tier === 'app' ? `app:${bare}` : tier === 'user' ? `user:${bare}` : bare;
}

/** Locators shared by every console page that shows state. */
export class StateLocators {
  constructor(readonly page: Page) {}

  /** A tier's column (its heading, key count, "Add key" and list). */
  column(tier: Tier): Locator {
    // The app page wraps the column in a region of the same name: the inner one is the column.
    return this.page.getByRole('region', { name: TIER_TITLES[tier], exact: true }).last();
  }

  /** The list of a tier's keys. */
  list(tier: Tier): Locator {
    return this.page.getByRole('list', { name: TIER_TITLES[tier], exact: true });
  }

  /** One key's row in a tier: its value, where it came from, and (where editable) Edit, Remove and History. */
  row(tier: Tier, key: string): Locator {
    return this.list(tier).getByRole('listitem', { name: keyInTier(tier, key), exact: true });
  }

  editButton(tier: 'app' | 'user', key: string): Locator {
    return this.row(tier, key).getByRole('button', { name: `Edit ${prefixedKey(tier, key)}`, exact: true });
  }

  removeButton(tier: 'app' | 'user', key: string): Locator {
    return this.row(tier, key).getByRole('button', { name: `Remove ${prefixedKey(tier, key)}`, exact: true });
  }

  historyButton(tier: 'app' | 'user', key: string): Locator {
    return this.row(tier, key).getByRole('button', { name: `History of ${prefixedKey(tier, key)}`, exact: true });
  }

  addKeyButton(tier: 'app' | 'user'): Locator {
    return this.column(tier).getByRole('button', { name: 'Add key', exact: true });
  }

  /** The dialog that edits, adds or removes a key (open while a change is being made). */
  get editDialog(): EditDialog {
    return new EditDialog(this.page);
  }
}

/** The state edit dialog: a value, a reason, then review and confirm. */
export class EditDialog {
  readonly root: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog');
  }

  get keyField(): Locator {
    return this.root.getByRole('textbox', { name: 'Key' });
  }
  get valueField(): Locator {
    return this.root.getByRole('textbox', { name: 'Value (JSON)' });
  }
  get reasonField(): Locator {
    return this.root.getByRole('textbox', { name: 'Reason' });
  }
  get reviewButton(): Locator {
    return this.root.getByRole('button', { name: 'Review change', exact: true });
  }
  /** "Confirm and save" or "Confirm and remove". */
  get confirmButton(): Locator {
    return this.root.getByRole('button', { name: /^Confirm and (save|remove)$/ });
  }
  get cancelButton(): Locator {
    return this.root.getByRole('button', { name: 'Cancel', exact: true });
  }
  /** Why the server refused the change, when it did. */
  get refusal(): Locator {
    return this.root.getByRole('alert');
  }

  /** Fills in value (JSON text, or any value to be written as JSON) and reason, reviews and confirms. */
  async save(value: unknown, reason: string): Promise<void> {
    await this.valueField.fill(typeof value === 'string' && isJsonText(value) ? value : JSON.stringify(value));
    await this.reasonField.fill(reason);
    await this.reviewButton.click();
    await this.confirmButton.click();
    await this.root.waitFor({ state: 'hidden' });
  }
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
