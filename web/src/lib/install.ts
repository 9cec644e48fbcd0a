import type { Version } from '../api/types';

/** One way to install a version, as a command a person copies. */
export interface InstallCommand {
  id: 'cli' | 'curl';
  /** Which client runs it, in words. */
  label: string;
  command: string;
  /** What to know before running it, or null. */
  note: string | null;
}

/**
 * The commands that install `version` of the skill `slug` from the registry at `origin`: the registry's own command
 * line first (it checks the package's digest, contents and scan verdict before writing anything), then a plain
 * download. A client the registry comes to support gets its line here.
 */
export function installCommands(
  origin: string,
  slug: string,
  version: Version,
  isLatest: boolean,
  downloadPath: string,
  isPrivate = false,
): InstallCommand[] {
  const commands: InstallCommand[] = [];
  const verdict = version.scan?.verdict;
  // The command line never installs a quarantined version, so none is offered for one.
  if (verdict !== 'malicious') {
    const target = isLatest ? slug : `${slug}@${version.version}`;
    const suspicious = verdict === 'suspicious';
    commands.push({
      id: 'cli',
      label: 'With the skill-registry command line',
      command: `skill-registry install ${target} --registry ${origin}${suspicious ? ' --allow-suspicious' : ''}`,
      note: suspicious
        ? 'The scanner judged this version suspicious: read its security report before installing it.'
        : isPrivate
          ? 'A private skill: sign the command line in first (skill-registry login) as a member of its organisation.'
          : null,
    });
  }
  // A private skill answers 404 to a caller without credentials, so the plain download carries an API key.
  commands.push(
    isPrivate
      ? {
          id: 'curl',
          label: 'With curl',
          command: `curl -fOJ -H "Authorization: Bearer $SKILL_REGISTRY_API_KEY" ${origin}${downloadPath}`,
          note: 'A private skill: set SKILL_REGISTRY_API_KEY to an API key of a member of its organisation.',
        }
      : { id: 'curl', label: 'With curl', command: `curl -fOJ ${origin}${downloadPath}`, note: null },
  );
  return commands;
}
