// The scanner's labelled evaluation corpus: malicious and risky packages per rule family, and benign packages
// chosen to look like them (documentation full of curl, security prose, scripts, other scripts and alphabets).
// Everything is generated from fixed seeds: two loads give the same samples, byte for byte.
import { agentManipulationSamples } from './malicious/agent-manipulation.js';
import { behaviourSamples } from './malicious/behaviour.js';
import { behaviourVariantSamples } from './malicious/behaviour-variants.js';
import { behaviourFamilySamples } from './malicious/behaviour-families.js';
import { behaviourFamilySamples2 } from './malicious/behaviour-families-2.js';
import { behaviourFamilySamples3 } from './malicious/behaviour-families-3.js';
import { behaviourFamilySamples4 } from './malicious/behaviour-families-4.js';
import { dangerousCommandSamples } from './malicious/dangerous-command.js';
import { executableSamples } from './malicious/executable.js';
import { hiddenContentSamples } from './malicious/hidden-content.js';
import { secretSamples } from './malicious/secret.js';
import { behaviourLookalikeSamples } from './benign/behaviour-lookalikes.js';
import { behaviourVariantLookalikeSamples } from './benign/behaviour-variants.js';
import { behaviourFamilyLookalikeSamples } from './benign/behaviour-families.js';
import { behaviourFamilyLookalikeSamples2 } from './benign/behaviour-families-2.js';
import { behaviourFamilyLookalikeSamples3 } from './benign/behaviour-families-3.js';
import { behaviourFamilyLookalikeSamples4 } from './benign/behaviour-families-4.js';
import { configSamples } from './benign/config.js';
import { docsSamples } from './benign/docs.js';
import { everydaySamples } from './benign/everyday.js';
import { i18nSamples } from './benign/i18n.js';
import { lookalikeSamples } from './benign/lookalikes.js';
import { minimalSamples } from './benign/minimal.js';
import { referenceSamples } from './benign/references.js';
import { scriptSamples } from './benign/scripts.js';
import { securitySamples } from './benign/security.js';
import type { Sample } from './sample.js';

export type { Sample, SampleFile } from './sample.js';
export { HARM_FAMILIES } from './sample.js';

export function loadCorpus(): Sample[] {
  return [
    ...hiddenContentSamples(),
    ...agentManipulationSamples(),
    ...dangerousCommandSamples(),
    ...secretSamples(),
    ...executableSamples(),
    ...behaviourSamples(),
    ...behaviourVariantSamples(),
    ...behaviourFamilySamples(),
    ...behaviourFamilySamples2(),
    ...behaviourFamilySamples3(),
    ...behaviourFamilySamples4(),
    ...docsSamples(),
    ...securitySamples(),
    ...scriptSamples(),
    ...i18nSamples(),
    ...configSamples(),
    ...referenceSamples(),
    ...minimalSamples(),
    ...lookalikeSamples(),
    ...everydaySamples(),
    ...behaviourLookalikeSamples(),
    ...behaviourVariantLookalikeSamples(),
    ...behaviourFamilyLookalikeSamples(),
    ...behaviourFamilyLookalikeSamples2(),
    ...behaviourFamilyLookalikeSamples3(),
    ...behaviourFamilyLookalikeSamples4(),
  ];
}
