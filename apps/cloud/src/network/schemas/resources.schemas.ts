import {
  type AttrMap,
  isBool,
  isCidr,
  isDictList,
  isInt,
  isIp,
  isIpOrNull,
  isList,
  isOneOf,
  isPortNumberOrNull,
  isString,
  isUuid,
  isUuidOrNull,
} from './attributes.js';

/** POST/PUT attributes of each resource (neutron-lib's definitions, the parts served here). */

const name = { post: true, put: true, check: isString(255) };
const description = { post: true, put: true, check: isString(255) };

export const NETWORK_ATTRS: AttrMap = {
  name,
  description,
  admin_state_up: { post: true, put: true, check: isBool },
  shared: { post: true, put: true, check: isBool },
  'router:external': { post: true, put: true, check: isBool },
  mtu: { post: true, put: true, check: isInt(68, 9000) },
  port_security_enabled: { post: true, put: true, check: isBool },
  availability_zone_hints: { post: true, put: false, check: isList(isString(255)) },
};

export const SUBNET_ATTRS: AttrMap = {
  name,
  description,
  network_id: { post: true, put: false, required: true, check: isUuid },
  ip_version: { post: true, put: false, required: true, check: isOneOf([4, 6]) },
  cidr: { post: true, put: false, check: isCidr },
  gateway_ip: { post: true, put: true, check: isIpOrNull },
  enable_dhcp: { post: true, put: true, check: isBool },
  allocation_pools: {
    post: true,
    put: true,
    check: isDictList({ start: isIp, end: isIp }, ['start', 'end']),
  },
  dns_nameservers: { post: true, put: true, check: isList(isIp) },
  host_routes: {
    post: true,
    put: true,
    check: isDictList({ destination: isCidr, nexthop: isIp }, ['destination', 'nexthop']),
  },
};

export const PORT_ATTRS: AttrMap = {
  name,
  description,
  network_id: { post: true, put: false, required: true, check: isUuid },
  admin_state_up: { post: true, put: true, check: isBool },
  mac_address: { post: true, put: true, check: isString(17) },
  fixed_ips: {
    post: true,
    put: true,
    check: isDictList({ subnet_id: isUuid, ip_address: isIp }),
  },
  device_id: { post: true, put: true, check: isString(255) },
  device_owner: { post: true, put: true, check: isString(255) },
  security_groups: { post: true, put: true, check: isList(isUuid) },
  port_security_enabled: { post: true, put: true, check: isBool },
  'binding:host_id': { post: true, put: true, check: isString(255) },
};

export const SECURITY_GROUP_ATTRS: AttrMap = {
  name,
  description,
  stateful: { post: true, put: true, check: isBool },
};

export const SECURITY_GROUP_RULE_ATTRS: AttrMap = {
  description: { post: true, put: true, check: isString(255) },
  security_group_id: { post: true, put: false, required: true, check: isUuid },
  direction: { post: true, put: false, required: true, check: isOneOf(['ingress', 'egress']) },
  ethertype: { post: true, put: false, check: isOneOf(['IPv4', 'IPv6']) },
  protocol: {
    post: true,
    put: false,
    check: (v) =>
      v === null || typeof v === 'string' || typeof v === 'number'
        ? null
        : `'${String(v)}' is not a valid string`,
  },
  port_range_min: { post: true, put: false, check: isPortNumberOrNull },
  port_range_max: { post: true, put: false, check: isPortNumberOrNull },
  remote_ip_prefix: { post: true, put: false, check: (v) => (v === null ? null : isCidr(v)) },
  remote_group_id: { post: true, put: false, check: isUuidOrNull },
};
