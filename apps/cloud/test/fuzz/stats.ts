/** How many requests a fuzz suite sent, by answer status and by kind of attack. */
export class FuzzStats {
  requests = 0;
  dbChecks = 0;
  readonly byStatus = new Map<number, number>();
  readonly byFamily = new Map<string, number>();

  record(status: number, family: string): void {
    this.requests++;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    this.byFamily.set(family, (this.byFamily.get(family) ?? 0) + 1);
  }

  summary(label: string): string {
    const statuses = [...this.byStatus].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k}:${v}`);
    const families = [...this.byFamily].sort().map(([k, v]) => `${k}:${v}`);
    return `[fuzz] ${label}: ${this.requests} requests (${this.dbChecks} database checks); statuses ${statuses.join(' ')}; attacks ${families.join(' ')}`;
  }
}
