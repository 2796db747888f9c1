/** The API extensions this Neutron serves (their aliases, names and descriptions as neutron-lib's). */
export const EXTENSIONS = [
  {
    alias: 'binding',
    name: 'Port Binding',
    description: 'Expose port bindings of a virtual port to external application',
  },
  {
    alias: 'external-net',
    name: 'Neutron external network',
    description: 'Adds external network attribute to network resource.',
  },
  { alias: 'net-mtu', name: 'Network MTU', description: 'Provides MTU attribute for a network resource.' },
  { alias: 'port-security', name: 'Port Security', description: 'Provides port security' },
  {
    alias: 'project-id',
    name: 'project_id field enabled',
    description: 'Extension that indicates that project_id field is enabled.',
  },
  { alias: 'security-group', name: 'security-group', description: 'The security groups extension.' },
  {
    alias: 'standard-attr-description',
    name: 'standard-attr-description',
    description: 'Extension to add descriptions to standard attributes',
  },
  {
    alias: 'standard-attr-revisions',
    name: 'Resource revision numbers',
    description: 'This extension will display the revision number of neutron resources.',
  },
  {
    alias: 'standard-attr-timestamp',
    name: 'Resource timestamps',
    description:
      'Adds created_at and updated_at fields to all Neutron resources that have Neutron standard attributes.',
  },
] as const;

export function extensionView(e: (typeof EXTENSIONS)[number]) {
  return {
    name: e.name,
    alias: e.alias,
    description: e.description,
    updated: '2013-01-01T10:00:00-00:00',
    links: [] as unknown[],
  };
}
