export {
  type AgentDirectory,
  type AgentDirectoryOptions,
  createAgentDirectory,
  type ProfileModel,
} from './agent-directory.js';
export { type AgentToolOptions, createAgentTool, type HandoffTargets } from './agent-tool.js';
export { NAME_PATTERN, SKILLS_DEFAULTS } from './defaults.js';
export { type FrontMatter, readFrontMatter } from './front-matter.js';
export { lineDiff } from './line-diff.js';
export { type AgentProfile, type LoadedAgents, loadAgents } from './load-agents.js';
export {
  type LoadSkillsAndAgentsOptions,
  loadSkillsAndAgents,
  type SkillsAndAgents,
  skillPinsFile,
  type WithheldSkill,
} from './load-home.js';
export { type LoadedSkills, type LoadSkillsOptions, loadSkills, type Skill } from './load-skills.js';
export { isModelRole, MODEL_ROLES, type ModelRole } from './model-role.js';
export { partFooter, readPart, type TextPart } from './read-part.js';
export {
  describeSkillFiles,
  isBinaryFile,
  listSkillFiles,
  readSkillFile,
  type SkillFileRead,
  type SkillFiles,
} from './read-skill-file.js';
export { createRoleRouter, type RoleRouter, type RoleRouterOptions } from './role-router.js';
export {
  type EvalGrade,
  parameterBillions,
  ROLE_SUGGESTIONS,
  type RoleRoute,
  type RoutableModel,
  routeModelRoles,
} from './route-model-roles.js';
export { withRankedSkills } from './skill-context.js';
export {
  compareFingerprints,
  describeChanges,
  fingerprintSkill,
  type SkillChanges,
  type SkillFingerprint,
  unchanged,
} from './skill-fingerprint.js';
export {
  describeRanked,
  firstSentence,
  formatSkillList,
  rankSkills,
  shownDescription,
  skillListFits,
} from './skill-listing.js';
export {
  createSkillPin,
  loadSkillPins,
  type SkillPin,
  type SkillPins,
  type SkillSource,
} from './skill-pins.js';
export { createSkillTool, type SkillToolOptions } from './skill-tool.js';
