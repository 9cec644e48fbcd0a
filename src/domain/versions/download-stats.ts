import type { VersionsRepository } from '../../db/repositories/versions.js';
import type { Actor } from '../actor.js';
import type { SkillService } from '../skills/skills.js';
import type { DownloadCounter } from './download-counter.js';
import { newestFirst } from './rules.js';

const DAY_MS = 86_400_000;

/** A skill's download statistics: its total, each version's, and one count per UTC day of the last `days`. */
export function downloadStats(deps: { skillService: SkillService; versions: VersionsRepository; downloads: DownloadCounter }) {
  const { versions, skillService } = deps;
  return {
    async stats(actor: Actor, skillRef: string, days: number) {
      // Counts buffered on this node are written first, so a download is visible in the next stats call.
      await deps.downloads.flush();
      const skill = await skillService.visibleForReading(actor, skillRef);
      const today = new Date();
      const dates: string[] = [];
      for (let i = days - 1; i >= 0; i -= 1) dates.push(new Date(today.getTime() - i * DAY_MS).toISOString().slice(0, 10));
      const rows = await versions.dailyDownloads(skill.id, dates[0]!);
      const byDay = new Map(rows.map((r) => [r.day, r.downloads]));
      const all = newestFirst(await versions.listForSkill(skill.id));
      return {
        skill_id: skill.id,
        total_downloads: all.reduce((sum, v) => sum + v.downloads, 0),
        versions: all.map((v) => ({ version: v.version, downloads: v.downloads })),
        daily: dates.map((date) => ({ date, downloads: byDay.get(date) ?? 0 })),
      };
    },
  };
}
