/**
 * The web app's side of the BFF, for benches that act as a signed-in user: the session cookie, the
 * CSRF header on every change, and the same /api paths (packages/shared's apiPaths) the pages use.
 */
import { apiPaths } from '@sv/shared';

export interface SignInInput {
  username: string;
  password: string;
  /** Unset: the BFF takes the user's first project, as the login page does when the field is empty. */
  project?: string;
}

export class BffApiError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly body: string,
  ) {
    super(`${path}: HTTP ${status} ${body.slice(0, 300)}`);
  }
}

export class BffClient {
  private constructor(
    readonly baseUrl: string,
    private readonly cookie: string,
    readonly csrfToken: string,
  ) {}

  /** POST /api/session as the login page sends it. */
  static async signIn(baseUrl: string, input: SignInInput): Promise<BffClient> {
    const res = await fetch(`${baseUrl}${apiPaths.session}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(input),
    });
    const text = await res.text();
    if (res.status !== 201) throw new BffApiError(res.status, apiPaths.session, text);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    return new BffClient(baseUrl, cookie, (JSON.parse(text) as { csrfToken: string }).csrfToken);
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Cookie: this.cookie, Accept: 'application/json' };
    if (method !== 'GET') headers['X-CSRF-Token'] = this.csrfToken;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 400) throw new BffApiError(res.status, path, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  /**
   * Holds the live-update stream (GET /api/events) open for `ms`, as every signed-in page does;
   * resolves with the change events it carried.
   */
  async holdEvents(ms: number): Promise<number> {
    const controller = new AbortController();
    const res = await fetch(`${this.baseUrl}${apiPaths.events}`, {
      headers: { Cookie: this.cookie, Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (res.status !== 200 || !res.body) throw new BffApiError(res.status, apiPaths.events, '');
    let events = 0;
    const reader = res.body.getReader();
    const timer = setTimeout(() => controller.abort(), ms);
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        events += (decoder.decode(value, { stream: true }).match(/^event: change$/gm) ?? []).length;
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    } finally {
      clearTimeout(timer);
    }
    return events;
  }
}
