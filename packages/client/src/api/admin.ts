import { segment, type Transport } from '../transport.js';
import type {
  AdminCreateUserBody,
  AdminListUsersQuery,
  AdminUpdateUserBody,
  FeaturedBody,
  Skill,
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

  /** `PATCH /v1/admin/skills/:skillId`: feature or unfeature. */
  setFeatured(skill: string, body: FeaturedBody): Promise<Skill> {
    return this.transport.json('PATCH', `/v1/admin/skills/${segment(skill)}`, { json: body });
  }
}
