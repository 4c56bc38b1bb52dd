export { classifyAddress, isIpAddress, unbracket } from './classify-address.js';
export {
  type AddressPolicyErrorCode,
  canonicalHost,
  createHostPolicy,
  type HostPolicy,
  type HostPolicyOptions,
} from './host-policy.js';
export { parseAllowHosts } from './parse-allow-hosts.js';
export {
  checkAddresses,
  type HostResolver,
  notFound,
  type ResolvedAddress,
  resolveChecked,
  systemResolver,
} from './resolve-checked.js';
