import type { Transport } from '../transport.js';

/** The operational endpoints outside `/v1`, and the API description. */
export class OperationsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /healthz`: resolves once the registry accepts requests. */
  health(): Promise<{ status: 'ok' }> {
    return this.transport.json('GET', '/healthz');
  }

  /** `GET /readyz`: the database and the package store answer (a ProblemError with status 503 otherwise). */
  ready(): Promise<{ status: 'ok'; checks: Record<string, string> }> {
    return this.transport.json('GET', '/readyz');
  }

  /** `GET /metrics`: Prometheus text. */
  async metrics(): Promise<string> {
    const response = await this.transport.send('GET', '/metrics', { headers: { accept: 'text/plain' } });
    return response.text();
  }

  /** `GET /v1/openapi.json`: the OpenAPI 3.1 document the types of this client are derived from. */
  openapi(): Promise<Record<string, unknown>> {
    return this.transport.json('GET', '/v1/openapi.json');
  }
}
