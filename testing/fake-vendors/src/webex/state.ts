/** The parts of Webex's messaging API objects the fake keeps, as the API names them. */
export interface Room {
  id: string;
  title: string;
  type: "direct" | "group";
  isLocked: boolean;
  teamId?: string;
  lastActivity: string;
  creatorId: string;
  created: string;
}

export interface Message {
  id: string;
  roomId: string;
  roomType: "direct" | "group";
  parentId?: string;
  text: string;
  markdown?: string;
  personId: string;
  personEmail: string;
  created: string;
}

export interface Membership {
  id: string;
  roomId: string;
  personId: string;
  personEmail: string;
  personDisplayName: string;
  personOrgId: string;
  isModerator: boolean;
  isMonitor: boolean;
  created: string;
}

export interface Person {
  id: string;
  emails: string[];
  displayName: string;
  orgId: string;
}

/** One change the fake applied through the API, for tests. */
export type WebexChange =
  | { action: "post"; message: Message }
  | { action: "create-room"; room: Room }
  | { action: "add-member"; membership: Membership };

export interface WebexState {
  /** The person the access token belongs to (the bot or user the agent acts as). */
  me: Person;
  people: Person[];
  rooms: Room[];
  messages: Message[];
  memberships: Membership[];
  changes: WebexChange[];
}
