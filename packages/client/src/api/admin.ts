import { segment, type Transport } from '../transport.js';
import type {
  AdminCreateUserBody,
  DeclineBody,
  AdminListUsersQuery,
  AdminUpdateUserBody,
  FeaturedBody,
  NameAllowance,
  NameAllowanceBody,
  NameAllowanceList,
  ReportList,
  ReportQueue,
  ReportQueueQuery,
  ReportsResolved,
  ResolveReportsBody,
  ReviewQueue,
  ReviewQueueQuery,
  PageParams,
  ScanJob,
  ScanJobList,
  Skill,
  SkillReportsQuery,
  StatusBody,
  User,
  UserList,
} from '../types.js';

/** `/v1/admin`: needs an administrator's session (an administrator's API key gets 403). */
export class AdminApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/admin/users`. */
  listUsers(query: AdminListUsersQuery = {}): Promise<UserList> {
    return this.transport.json('GET', '/v1/admin/users', { query });
  }

  /** `POST /v1/admin/users`. */
  createUser(body: AdminCreateUserBody): Promise<User> {
    return this.transport.json('POST', '/v1/admin/users', { json: body });
  }

  /** `PATCH /v1/admin/users/:userId`: role and disabled flag. */
  updateUser(userId: string, body: AdminUpdateUserBody): Promise<User> {
    return this.transport.json('PATCH', `/v1/admin/users/${segment(userId)}`, { json: body });
  }

  /** `PATCH /v1/admin/skills/:skillId/status`: publish, deprecate or republish. */
  setSkillStatus(skill: string, body: StatusBody): Promise<Skill> {
    return this.transport.json('PATCH', `/v1/admin/skills/${segment(skill)}/status`, { json: body });
  }

  /** `GET /v1/admin/review-queue`: drafts waiting (or with changes requested), riskiest first. */
  reviewQueue(query: ReviewQueueQuery = {}): Promise<ReviewQueue> {
    return this.transport.json('GET', '/v1/admin/review-queue', { query });
  }

  /** `POST /v1/admin/skills/:skillId/decline`: declines a draft with a reason its owner reads. */
  declineSkill(skill: string, body: DeclineBody): Promise<Skill> {
    return this.transport.json('POST', `/v1/admin/skills/${segment(skill)}/decline`, { json: body });
  }

  /** `PATCH /v1/admin/skills/:skillId`: feature or unfeature. */
  setFeatured(skill: string, body: FeaturedBody): Promise<Skill> {
    return this.transport.json('PATCH', `/v1/admin/skills/${segment(skill)}`, { json: body });
  }

  /** `GET /v1/admin/reports`: reported skills with reports of a state (`open` by default), most reporters first. */
  reports(query: ReportQueueQuery = {}): Promise<ReportQueue> {
    return this.transport.json('GET', '/v1/admin/reports', { query });
  }

  /** `GET /v1/admin/skills/:skillId/reports`: one skill's reports of a state, newest first. */
  skillReports(skill: string, query: SkillReportsQuery = {}): Promise<ReportList> {
    return this.transport.json('GET', `/v1/admin/skills/${segment(skill)}/reports`, { query });
  }

  /** `POST /v1/admin/skills/:skillId/reports/resolve`: dismisses or actions a skill's open reports. */
  resolveReports(skill: string, body: ResolveReportsBody): Promise<ReportsResolved> {
    return this.transport.json('POST', `/v1/admin/skills/${segment(skill)}/reports/resolve`, { json: body });
  }

  /** `POST /v1/admin/scans`: starts a rescan of every stored version (409 `scan_job_running` while one runs). */
  startRescan(): Promise<ScanJob> {
    return this.transport.json('POST', '/v1/admin/scans');
  }

  /** `GET /v1/admin/scans`: the rescan jobs, the latest started first. */
  rescanJobs(query: PageParams = {}): Promise<ScanJobList> {
    return this.transport.json('GET', '/v1/admin/scans', { query });
  }

  /** `GET /v1/admin/scans/:jobId`: a rescan job's progress. */
  rescanJob(jobId: string): Promise<ScanJob> {
    return this.transport.json('GET', `/v1/admin/scans/${segment(jobId)}`);
  }

  /** `POST /v1/admin/name-allowances`: lets a reserved or look-alike slug or handle be created, with the reason recorded. */
  allowName(body: NameAllowanceBody): Promise<NameAllowance> {
    return this.transport.json('POST', '/v1/admin/name-allowances', { json: body });
  }

  /** `GET /v1/admin/name-allowances`: the allowed names, the newest first. */
  nameAllowances(query: PageParams = {}): Promise<NameAllowanceList> {
    return this.transport.json('GET', '/v1/admin/name-allowances', { query });
  }

  /** `DELETE /v1/admin/name-allowances/:name`: withdraws an allowance. */
  withdrawNameAllowance(name: string): Promise<void> {
    return this.transport.empty('DELETE', `/v1/admin/name-allowances/${segment(name)}`);
  }
}
