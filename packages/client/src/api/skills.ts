import { segment, type Transport } from '../transport.js';
import type {
  CreateSkillBody,
  ListSkillsQuery,
  ReportBody,
  ReportFiled,
  OfferTransferBody,
  Skill,
  SkillAliasList,
  SkillList,
  Transfer,
  TransferList,
  SkillNameHistory,
  Stats,
  StatsQuery,
  UpdateSkillBody,
} from '../types.js';

/** `/v1/skills`: skill records. Versions and packages are in `client.versions`. */
export class SkillsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/skills`: lists and searches (published skills unless an admin session asks for `status`). */
  list(query: ListSkillsQuery = {}): Promise<SkillList> {
    return this.transport.json('GET', '/v1/skills', { query });
  }

  /** `GET /v1/skills/:skillId`, by id, slug, or `@scope/slug` for a skill in a user's or an organisation's scope. */
  get(skill: string): Promise<Skill> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}`);
  }

  /**
   * `GET /v1/skills/:skillId/names`: the display names the skill had since it was published, newest first, with when
   * each was replaced (and by whom, where the caller may know).
   */
  names(skill: string): Promise<SkillNameHistory> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/names`);
  }

  /**
   * `POST /v1/skills/:skillId/transfer`: offers the skill to a user or an organisation (`to`), optionally with a new
   * slug; the receiver accepts with `acceptTransfer`. A request by a skill's old name is followed to its new one.
   */
  offerTransfer(skill: string, body: OfferTransferBody): Promise<Transfer> {
    return this.transport.json('POST', `/v1/skills/${segment(skill)}/transfer`, { json: body });
  }

  /** `GET /v1/skills/:skillId/transfer`: the skill's open offer, for whoever manages it. */
  transfer(skill: string): Promise<TransferList> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/transfer`);
  }

  /** `GET /v1/me/transfers`: offers the caller may answer. */
  receivedTransfers(): Promise<TransferList> {
    return this.transport.json('GET', '/v1/me/transfers');
  }

  /** `POST /v1/transfers/:id/accept`: the skill moves to the caller (or its organisation) at once. */
  acceptTransfer(id: string): Promise<void> {
    return this.transport.empty('POST', `/v1/transfers/${segment(id)}/accept`);
  }

  /** `POST /v1/transfers/:id/decline`. */
  declineTransfer(id: string): Promise<void> {
    return this.transport.empty('POST', `/v1/transfers/${segment(id)}/decline`);
  }

  /** `DELETE /v1/transfers/:id`: the offering side takes an offer back. */
  withdrawTransfer(id: string): Promise<void> {
    return this.transport.empty('DELETE', `/v1/transfers/${segment(id)}`);
  }

  /** `POST /v1/skills/:skillId/rename`: a new slug in the same scope; the old name keeps leading to the skill. */
  rename(skill: string, slug: string): Promise<Skill> {
    return this.transport.json('POST', `/v1/skills/${segment(skill)}/rename`, { json: { slug } });
  }

  /** `GET /v1/skills/:skillId/aliases`: the names the skill had before it moved or was renamed. */
  aliases(skill: string): Promise<SkillAliasList> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/aliases`);
  }

  /** `POST /v1/skills`: creates a draft skill without a version. */
  create(body: CreateSkillBody): Promise<Skill> {
    return this.transport.json('POST', '/v1/skills', { json: body });
  }

  /** `PATCH /v1/skills/:skillId`: changes metadata. */
  update(skill: string, body: UpdateSkillBody): Promise<Skill> {
    return this.transport.json('PATCH', `/v1/skills/${segment(skill)}`, { json: body });
  }

  /** `DELETE /v1/skills/:skillId`: deletes a draft with its versions. */
  delete(skill: string): Promise<void> {
    return this.transport.empty('DELETE', `/v1/skills/${segment(skill)}`);
  }

  /** `GET /v1/skills/:skillId/stats`: download counts per version and per day. */
  stats(skill: string, query: StatsQuery = {}): Promise<Stats> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/stats`, { query });
  }

  /**
   * `POST /v1/skills/:skillId/reports`: reports a skill the caller can see and does not own, with a reason (and
   * details, required with `other`). 409 `already_reported` while the caller's earlier report is open.
   */
  report(skill: string, body: ReportBody): Promise<ReportFiled> {
    return this.transport.json('POST', `/v1/skills/${segment(skill)}/reports`, { json: body });
  }
}
