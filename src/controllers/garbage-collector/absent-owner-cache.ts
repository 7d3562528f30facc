// Owners known to be gone (seen deleted, or answered 404 / another uid), so that the dependents of
// one deleted owner, 10,000 of them perhaps, are judged without asking the server about the owner
// 10,000 times. Bounded and least-recently-used first out, as upstream's ReferenceCache (500).

export const ABSENT_OWNER_CACHE_SIZE = 500;

export class AbsentOwnerCache {
  private readonly keys = new Map<string, true>();

  constructor(private readonly size = ABSENT_OWNER_CACHE_SIZE) {}

  add(key: string): void {
    this.keys.delete(key);
    this.keys.set(key, true);
    if (this.keys.size > this.size) {
      const oldest = this.keys.keys().next().value;
      if (oldest !== undefined) this.keys.delete(oldest);
    }
  }

  has(key: string): boolean {
    if (!this.keys.has(key)) return false;
    // A hit counts as a use: the owner of many dependents stays while they are worked off.
    this.keys.delete(key);
    this.keys.set(key, true);
    return true;
  }
}
