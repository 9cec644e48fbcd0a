import { segment, type Transport } from '../transport.js';
import type { CallLog, CallLogList, LogsQuery } from '../types.js';

/** `/v1/logs`: the caller's own API calls. */
export class LogsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/logs`: newest first; `from`/`to` (ISO 8601), `status_code` (`404` or `4xx`), `method`. */
  list(query: LogsQuery = {}): Promise<CallLogList> {
    return this.transport.json('GET', '/v1/logs', { query });
  }

  /** `GET /v1/logs/:requestId`: one call, by the `X-Request-Id` of its response. */
  get(requestId: string): Promise<CallLog> {
    return this.transport.json('GET', `/v1/logs/${segment(requestId)}`);
  }
}
