import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RequestMetrics } from '../../src/http/request-metrics.js';

/** The value of one exposition line, found by its name and labels. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  assert.ok(line !== undefined, `no line for ${series} in:\n${text}`);
  return Number(line.slice(series.length + 1));
}

describe('request metrics', () => {
  it('counts per route, method and status, with cumulative duration buckets, a sum and a count', () => {
    const metrics = new RequestMetrics();
    metrics.observe('GET', '/v1/skills/:skillId', 200, 0.4);
    metrics.observe('GET', '/v1/skills/:skillId', 200, 1);
    metrics.observe('GET', '/v1/skills/:skillId', 200, 3);
    metrics.observe('GET', '/v1/skills/:skillId', 200, 20_000);
    metrics.observe('GET', '/v1/skills/:skillId', 404, 2);
    metrics.observe('POST', '/v1/skills', 201, 7);
    const text = metrics.exposition();
    const ok = 'method="GET",route="/v1/skills/:skillId",status_code="200"';
    assert.equal(valueOf(text, `http_requests_total{${ok}}`), 4);
    assert.equal(valueOf(text, `http_requests_total{method="GET",route="/v1/skills/:skillId",status_code="404"}`), 1);
    assert.equal(valueOf(text, `http_requests_total{method="POST",route="/v1/skills",status_code="201"}`), 1);
    // 0.4 ms and exactly 1 ms fall in le="0.001" (bounds are inclusive); 3 ms in le="0.005"; 20 s only in +Inf.
    assert.equal(valueOf(text, `http_request_duration_seconds_bucket{le="0.001",${ok}}`), 2);
    assert.equal(valueOf(text, `http_request_duration_seconds_bucket{le="0.0025",${ok}}`), 2);
    assert.equal(valueOf(text, `http_request_duration_seconds_bucket{le="0.005",${ok}}`), 3);
    assert.equal(valueOf(text, `http_request_duration_seconds_bucket{le="10",${ok}}`), 3);
    assert.equal(valueOf(text, `http_request_duration_seconds_bucket{le="+Inf",${ok}}`), 4);
    assert.equal(valueOf(text, `http_request_duration_seconds_count{${ok}}`), 4);
    assert.ok(Math.abs(valueOf(text, `http_request_duration_seconds_sum{${ok}}`) - 20.0044) < 1e-9);
    assert.match(text, /^# HELP http_requests_total .+\n# TYPE http_requests_total counter\n/);
    assert.match(text, /\n# TYPE http_request_duration_seconds histogram\n/);
    assert.ok(text.endsWith('\n'));
  });

  it('escapes label values as the text format asks', () => {
    const metrics = new RequestMetrics();
    metrics.observe('GET', 'a"b\\c\nd', 200, 1);
    assert.match(metrics.exposition(), /route="a\\"b\\\\c\\nd"/);
  });
});
