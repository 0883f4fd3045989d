export { ErrorCodes, TickwheelError, type ClientErrorCode } from './errors.js';
export { DEFAULTS, MAX_ENDPOINTS, type ResolvedOptions, type TickwheelClientOptions } from './options.js';
export type {
  Callback, ClusterInfo, Delivery, DeliveryPage, DeliveryState, Firing, From, HealthInfo, Json, Misfire, TimerInfo,
  TimerKind, TimerPage, TimerRequest, TopicInfo, TopicPage, WheelInfo,
} from './types.js';
export type { Subscription } from './impl/subscription.js';
export type { ClientStats } from './client.js';
