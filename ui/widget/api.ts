import type { VisitorContact, WidgetConfig, WidgetCsat, WidgetMessage } from './types';

/** An API answer that is not 2xx: `status` 0 is a network failure. */
export class WidgetApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A 429's proof-of-work challenge (Balcao-Challenge header), to solve and send back (pow.ts). */
    readonly challenge?: string,
    /** A 503's Retry-After, in seconds (the server is over capacity for a moment). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** A solved challenge, sent with a first contact while the channel is under a burst (docs/widget.md). */
export interface ChallengeSolution {
  token: string;
  counter: string;
}

/** The public widget API (/api/v1/widget) of the Balcão server that served this script. */
export class WidgetApi {
  constructor(
    private readonly base: string,
    private readonly identifier: string,
  ) {}

  private async call<T>(path: string, init: { method?: string; token?: string; json?: unknown; form?: FormData } = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    let body: string | FormData | undefined;
    if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      body = init.form;
    }
    let res: Response;
    try {
      // No cookies: the visitor is their token (docs/widget.md).
      res = await fetch(`${this.base}/api/v1/widget${path}`, { method: init.method ?? 'GET', headers, body, credentials: 'omit', mode: 'cors' });
    } catch {
      throw new WidgetApiError(0, 'network');
    }
    const json = (await res.json().catch(() => undefined)) as { data?: T; errors?: Array<{ descriptions?: string[] }> } | undefined;
    if (!res.ok) {
      const retryAfter = Number(res.headers.get('Retry-After'));
      throw new WidgetApiError(
        res.status,
        json?.errors?.[0]?.descriptions?.[0] ?? `HTTP ${res.status}`,
        res.headers.get('Balcao-Challenge') ?? undefined,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      );
    }
    return json?.data as T;
  }

  config(): Promise<WidgetConfig> {
    return this.call(`/config?identifier=${encodeURIComponent(this.identifier)}`);
  }

  send(text: string, clientMessageId: string, token?: string, challenge?: ChallengeSolution, contact?: VisitorContact): Promise<{ message: WidgetMessage; visitor: { id: string; token?: string } }> {
    // The pre-chat form's answers go with a first contact only (the name as SPEC's `sender`).
    const who = !token && contact ? { sender: contact.name, email: contact.email, phone: contact.phone } : {};
    return this.call('/messages', { method: 'POST', token, json: { content: text, type: 'text', identifier: this.identifier, clientMessageId, ...who, ...(challenge ? { challenge } : {}) } });
  }

  messages(token: string, after?: number): Promise<WidgetMessage[]> {
    return this.call(`/messages${after ? `?after=${after}&limit=100` : '?limit=50'}`, { token });
  }

  /** The visitor's rating of the question `messageId` (docs/csat.md). */
  csat(token: string, messageId: number, rating: number, comment: string | null): Promise<{ messageId: number | null; csat?: WidgetCsat }> {
    return this.call('/csat', { method: 'POST', token, json: { messageId, rating, ...(comment ? { comment } : {}) } });
  }

  sendFile(token: string, file: File): Promise<{ message: WidgetMessage }> {
    const form = new FormData();
    form.append('file', file, file.name);
    return this.call('/files', { method: 'POST', token, form });
  }
}
