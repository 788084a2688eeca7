// @ts-check
// The table protocol's messages as the page sends and receives them (docs/protocol.md, "WebSocket"),
// and the view every `state` carries, as JSDoc types for tsc (docs/development.md). Types only:
// no module imports this one at run time; they name its types as
// `import("./protocol-types.js").StateMessage`. The server builds these messages in
// bistrot/wire.py, the table's `seats` and `table` in bistrot/tablecore/rendering.py (seats_info,
// table_info); the table of this device (js/offline-worker.js) sends the very same ones.
//
// GameView is bistrot.engine.GameView, key for key and optional for optional:
// tests/test_view_types.py fails when either side gains or loses a key the other has not.

/** An action's or a request's id: a text of 1 to 64 characters or an integer. @typedef {string | number} MessageId */

/**
 * What every game's view holds (bistrot.engine.GameView); each game's view adds its own keys.
 * `deal_code` appears once the game is over (never at a challenge's or a daily table); `seats`
 * and `table` are added by the host, which also sets `legal`.
 * @typedef {object} GameView
 * @property {string} game
 * @property {number | null} seat  null for spectators
 * @property {number} players
 * @property {Record<string, any>} rules
 * @property {string} phase
 * @property {number | null} to_move
 * @property {string[]} legal  what this seat may do now (empty when it is not its turn)
 * @property {boolean} is_over
 * @property {number | null} winner
 * @property {string} [deal_code]
 * @property {SeatInfo[]} [seats]
 * @property {TableInfo} [table]
 */

/** A game's view: the common keys, and the game's own (Omi's `hand`, `trump`, ...; Oti's
 * `out`, ...), read by that game's renderer (js/games/).
 * @typedef {GameView & Record<string, any>} View */

/**
 * One seat of a view's `seats` (tablecore/rendering.py seats_info): who sits there, and the
 * presence the page shows (a change of presence comes as a `state` of the same seq).
 * @typedef {object} SeatInfo
 * @property {number} seat
 * @property {"human" | "computer" | "open"} kind  `open`: a free seat of a friends table not started
 * @property {string | null} name
 * @property {string | null} level  a computer's, or the one playing for a player away
 * @property {boolean} connected
 * @property {boolean} away  the player's grace ran out: a computer plays for them
 * @property {boolean} you
 * @property {string | null} profile  the public id of the player's profile
 * @property {number} [grace_left]  whole seconds before a computer takes the seat, while its
 *   player's grace runs
 */

/**
 * A view's `table` (tablecore/rendering.py table_info).
 * @typedef {object} TableInfo
 * @property {string} id
 * @property {string} game
 * @property {string} mode  "computer" | "friends" | "hotseat"
 * @property {"waiting" | "playing" | "over"} status
 * @property {string | null} rematch  the new table's id, once one was opened
 * @property {number} bot_delay_ms
 * @property {number} grace_s
 * @property {number[] | null} teams  each seat's team, where seats play in partnerships
 * @property {boolean} hints  whether a seat may ask for hints here
 * @property {Record<string, number>} [hints_used]  once over, hints used by seat
 * @property {string} [event]  the club event of a board's table
 * @property {true} [local]  a table of this device
 */

/**
 * The action that produced a state's seq.
 * @typedef {object} LastAction
 * @property {number} seq
 * @property {number} seat
 * @property {string} action
 * @property {"human" | "computer"} by
 */

// ---------------------------------------------------------------- server -> page

/**
 * The table as one audience sees it at `seq`; the same seq again is a refresh.
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {number} seq
 * @property {View} view
 * @property {LastAction | null} last  null on a refresh or a fresh state
 * @property {number} [at]  not sent: when the page received it (Date.now(), js/table/session.js)
 */

/**
 * The action of this id is stored as action `seq`.
 * @typedef {object} AckMessage
 * @property {"ack"} type
 * @property {MessageId} id
 * @property {number} seq
 */

/**
 * A refusal (nothing changed); `id` null for a refusal of the connection itself.
 * @typedef {object} RejectMessage
 * @property {"reject"} type
 * @property {MessageId | null} id
 * @property {string} code
 * @property {string} message
 */

/**
 * The answer to a ping, with the current seq.
 * @typedef {object} PongMessage
 * @property {"pong"} type
 * @property {MessageId | null} id
 * @property {number} seq
 */

/**
 * The `n`-th chat message of the table.
 * @typedef {object} ChatMessage
 * @property {"chat"} type
 * @property {number} n
 * @property {number} seat
 * @property {string | null} name
 * @property {string} text
 * @property {number} at  seconds since 1970
 */

/**
 * The answer to this connection's `hint`: the strongest computer player's action at `seq`.
 * @typedef {object} HintMessage
 * @property {"hint"} type
 * @property {MessageId} id
 * @property {number} seq
 * @property {string} action
 */

/** @typedef {StateMessage | AckMessage | RejectMessage | PongMessage | ChatMessage | HintMessage} ServerMessage */

// ---------------------------------------------------------------- page -> server

/**
 * @typedef {object} ActMessage
 * @property {"act"} type
 * @property {MessageId} id  unique per seat: a repeated id gets its first answer again
 * @property {string} action
 * @property {number} [seat]
 * @property {number} [seq]  the last seq seen (informational)
 */

/** @typedef {{ type: "ping" | "sync", id?: MessageId }} PingOrSync */
/** @typedef {{ type: "chat", id?: MessageId, text: string }} ChatSend */
/** @typedef {{ type: "hint", id: MessageId }} HintAsk */
/** The first message of a WebSocket (js/transport.js sends it itself).
 * @typedef {{ type: "hello", token: string, since?: number }} HelloMessage */

/** @typedef {ActMessage | PingOrSync | ChatSend | HintAsk} ClientMessage */

// ---------------------------------------------------------------- the page's transports

/**
 * A connection to one table, by WebSocket (js/transport.js) or to this device's table
 * (js/worker-transport.js): the page cannot tell them apart.
 * @typedef {object} Transport
 * @property {(msg: ClientMessage) => boolean} send  false when the connection is down
 * @property {(cb: (msg: ServerMessage) => void) => void} onMessage
 * @property {(cb: (status: TransportStatus, detail: Record<string, any>) => void) => void} onStatus
 * @property {() => void} close
 * @property {number | null} lastSeq  the highest seq seen (`since` when connecting again)
 */

/** @typedef {"connecting" | "open" | "reconnecting" | "closed"} TransportStatus */

export {};
