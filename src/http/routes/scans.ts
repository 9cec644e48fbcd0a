import { problems } from '@skill-registry/api-schemas/common';
import { RescanBody, ScanJob, ScanJobList, ScanJobParams, ScanJobsQuery, ScanReportRef } from '@skill-registry/api-schemas/scans';
import { VersionParams } from '@skill-registry/api-schemas/versions';
import { pageOf } from '../paging.js';
import { caller } from '../plugins/auth.js';
import type { RoutePlugin } from '../types.js';
import { security } from './security.js';

export const scanRoutes: RoutePlugin = async (app, { services }) => {
  app.get(
    '/v1/skills/:skillId/versions/:version/scan',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['scans'],
        summary: "A version's scan report",
        description:
          'The verdict, the rules version, when it was scanned, the findings counted and listed, the URLs and domains the ' +
          "package mentions, and the owner's explanation. Visible when the version is (404 otherwise); 404 `scan_not_found` " +
          'for a version uploaded before packages were scanned, until it is scanned again.',
        params: VersionParams,
        response: { 200: ScanReportRef, ...problems(401, 404) },
      },
    },
    async (request) => services.versions.scanReport(request.actor, request.params.skillId, request.params.version),
  );

  app.post(
    '/v1/skills/:skillId/versions/:version/scan',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['scans'],
        summary: 'Scan a version again',
        description:
          "The skill's owner (a session or a key with skill:upload) or an admin session scans the stored package again with " +
          'the current rules and may leave an `explanation` for reviewers (an empty one removes it; without one the ' +
          'explanation stays). A version that becomes malicious is quarantined at once and stops being `latest`. 422 when ' +
          'the current rules refuse the stored package.',
        security: security('uploader'),
        params: VersionParams,
        body: RescanBody,
        response: { 200: ScanReportRef, ...problems(400, 401, 403, 404, 415, 422) },
      },
    },
    async (request) => services.versions.rescan(caller(request), request.params.skillId, request.params.version, request.body.explanation),
  );

  app.post(
    '/v1/admin/scans',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin', 'scans'],
        summary: 'Rescan every version',
        description:
          'Starts a job that scans every version stored now with the current rules, in the background on every node ' +
          '(each claims batches of versions under a lease, so none is scanned by two nodes at once and the batch of a node ' +
          'that stops is taken over when its lease runs out). Answers 202 with the job; follow it at `Location`. One job ' +
          'runs at a time: 409 `scan_job_running` while another has versions pending.',
        security: security('admin'),
        response: { 202: ScanJob, ...problems(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const job = await services.rescans.startJob(caller(request));
      return reply.code(202).header('location', `/v1/admin/scans/${job.id}`).send(job);
    },
  );

  app.get(
    '/v1/admin/scans',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin', 'scans'],
        summary: 'Rescan jobs',
        description: 'Every rescan job, the latest started first, each with its progress.',
        security: security('admin'),
        querystring: ScanJobsQuery,
        response: { 200: ScanJobList, ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await services.rescans.list(caller(request), page);
      return { items, total, page: page.page, page_size: page.pageSize };
    },
  );

  app.get(
    '/v1/admin/scans/:jobId',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin', 'scans'],
        summary: 'Progress of a rescan job',
        description: 'Versions in all, scanned, failed and still pending; `running` until none is pending.',
        security: security('admin'),
        params: ScanJobParams,
        response: { 200: ScanJob, ...problems(401, 403, 404) },
      },
    },
    async (request) => services.rescans.job(caller(request), request.params.jobId),
  );
};
