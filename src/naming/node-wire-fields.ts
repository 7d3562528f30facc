// Wire names of the Node fields that carry upstream's node-agent and proxy brand. Stock clients
// decode these exact keys, so they are built from the upstream profile under every profile; the
// Node schema, its printer columns and the simulated node agents all take them from here.

import { namingProfile } from './profile.ts';

const UPSTREAM = namingProfile('upstream');
const AGENT = UPSTREAM.nodeAgent;
const PROXY_PREFIX = UPSTREAM.componentPrefix.replace(/-$/, '');

/** NodeSystemInfo: the version the node agent reports for itself. */
export const NODE_AGENT_VERSION_FIELD = `${AGENT}Version`;
/** NodeSystemInfo: the (deprecated) service proxy version. */
export const NODE_PROXY_VERSION_FIELD = `${PROXY_PREFIX}ProxyVersion`;
/** ConfigMapNodeConfigSource: the ConfigMap key holding the agent's configuration. */
export const NODE_AGENT_CONFIG_KEY_FIELD = `${AGENT}ConfigKey`;
/** NodeDaemonEndpoints: the endpoint the node agent listens on. */
export const NODE_AGENT_ENDPOINT_FIELD = `${AGENT}Endpoint`;
