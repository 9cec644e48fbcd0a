import { segment, type Transport } from '../transport.js';
import type { Feedback, FeedbackBody, FeedbackList, FeedbackQuery } from '../types.js';

/** Feedback on skills. */
export class FeedbackApi {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/feedback`: a rating, a comment, or both, on a published skill. */
  submit(body: FeedbackBody): Promise<Feedback> {
    return this.transport.json('POST', '/v1/feedback', { json: body });
  }

  /** `GET /v1/skills/:skillId/feedback`: what a skill received (its owner, or an admin session). */
  list(skill: string, query: FeedbackQuery = {}): Promise<FeedbackList> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/feedback`, { query });
  }
}
