//! An order desk backed by SQLite: the three layers of a tool call.
//!
//! 1. Schema and 2. semantic layers, from the derive: `orderId` must match
//!    `ORD-NNNN-NNNNN`; `status` must be one of [`STATUSES`], the very constant the
//!    database's `CHECK` and the business rules below are built from.
//! 3. Business layer, in the handler: the order exists (else a validation error: check
//!    the ID), the caller may act on it (else a permission error that says nothing about
//!    the order), its state allows the action (else a business error naming the state
//!    and what is allowed). Only then is anything written.
//!
//! ```sh
//! cargo run --example orders                           # prints a session of calls and results
//! cargo run --example orders -- --stdio                 # serves the desk over MCP stdio (rmcp)
//! cargo run --example orders -- --http 127.0.0.1:8080   # over MCP Streamable HTTP, at /mcp
//! # one of several replicas: the same database, Redis and sealing key for every one
//! cargo run --example orders -- --http 127.0.0.1:8081 --db /srv/orders.sqlite3 \
//!     --redis redis://127.0.0.1:6379/ --state-key "$(cat /etc/orders/state-key.hex)"
//! # with OAuth: tokens of that issuer, for that resource
//! cargo run --example orders -- --http 127.0.0.1:8080 \
//!     --issuer http://127.0.0.1:9000 --resource http://127.0.0.1:8080/mcp
//! ```
//!
//! With `--issuer`, every request needs a JWT access token of that authorization server
//! (its JWK set found through its metadata) whose audience is `--resource`:
//! `find_orders`, `find_order`, `track_order` and `export_orders` need the scope
//! `orders:read`,
//! `cancel_order` needs `orders:write`, and the customer is the token's subject.
//!
//! `export_orders` takes two seconds: a client that declared the tasks extension gets a
//! task, which it polls with `tasks/get` and may cancel (`--task-ttl-ms MS`: how long a
//! task and its result are kept, an hour unless said); with `--redis`, through any
//! replica.
//!
//! The database is a file in the system's temporary directory, created and seeded on
//! first start (`--db PATH` to choose another, `--db :memory:` for a fresh one). The
//! signed-in customer is `C-1001` (`--customer ID` to choose another).

use std::error::Error;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mcp_tool::ask::{Answer, Elicit, Reach};
use mcp_tool::{Ask, Caller, McpTool, SchemaProfile, ToolError, Toolbox, Unverified, Violation};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[path = "common/serve.rs"]
pub(crate) mod serve;

/// Every state an order can be in: the whitelist `find_orders` advertises and enforces,
/// and the database's `CHECK` constraint.
const STATUSES: &[&str] = &["PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"];

/// The states from which an order can be cancelled: a business rule over [`STATUSES`].
const CANCELLABLE: &[&str] = &["PENDING", "PAID"];

/// Cancel one of the customer's orders that has not shipped yet.
#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
#[mcp_tool(
    destructive,
    idempotent = false,
    confirm = "Cancel order {order_id}? Reason: {reason}",
    // An agent the issuer grants this scope (one with no human to confirm) cancels
    // unconfirmed; every other caller's user confirms.
    unconfirmed_scope = "orders:unattended",
    scopes("orders:write")
)]
struct CancelOrder {
    /// The order's ID, as shown to the customer.
    #[validate(regex(
        pattern = r"^ORD-[0-9]{4}-[0-9]{5}$",
        hint = "Order IDs look like ORD-2026-00042; use find_orders to look one up."
    ))]
    order_id: String,
    /// Why the customer cancels, in their words.
    #[validate(length(min = 3, max = 200))]
    reason: String,
}

/// List the customer's orders, newest first. Nothing matching is an empty result.
#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
#[mcp_tool(read_only, scopes("orders:read"))]
struct FindOrders {
    /// Only orders in this state.
    #[validate(enum = STATUSES)]
    status: Option<String>,
    /// Only orders placed on or after this day (YYYY-MM-DD).
    #[validate(past_date)]
    placed_since: Option<String>,
    /// At most this many orders (default 20).
    #[validate(range(min = 1, max = 50))]
    limit: Option<u8>,
    /// Leave out orders in these states.
    #[validate(items(enum = STATUSES))]
    exclude: Option<std::collections::BTreeSet<String>>,
}

/// Export the customer's orders as CSV, oldest first. Slow (a few seconds): a client
/// that declared tasks gets a task to poll, and may cancel it.
#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
#[mcp_tool(read_only, scopes("orders:read"), task_support = "optional")]
struct ExportOrders {
    /// Only orders in this state.
    #[validate(enum = STATUSES)]
    status: Option<String>,
    /// Only orders placed on or after this day (YYYY-MM-DD).
    #[validate(past_date)]
    placed_since: Option<String>,
}

/// Find one of the customer's orders, by its ID or by the tracking number of its
/// shipment. Nothing matching is an empty result.
#[derive(McpTool, Deserialize, Debug)]
#[serde(tag = "by", rename_all = "snake_case")]
#[mcp_tool(read_only, scopes("orders:read"))]
enum FindOrder {
    /// By the order's ID, as shown to the customer.
    Id {
        #[serde(rename = "orderId")]
        #[validate(regex(
            pattern = r"^ORD-[0-9]{4}-[0-9]{5}$",
            hint = "Order IDs look like ORD-2026-00042."
        ))]
        order_id: String,
    },
    /// By the carrier's tracking number of its shipment.
    Tracking {
        #[serde(rename = "trackingNumber")]
        #[validate(regex(
            pattern = r"^[A-Z]{2}[0-9]{9}$",
            hint = "Tracking numbers look like RP123456789."
        ))]
        tracking_number: String,
    },
}

/// What `find_order` found: the order, or nothing.
#[derive(Serialize, schemars::JsonSchema, Debug)]
struct Found {
    order: Option<OrderSummary>,
}

/// Where an order is: the order, its shipment and the carrier's tracking, gathered from
/// three sources. When a source is down, what the others gave comes back with the error.
#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
#[mcp_tool(read_only, open_world, scopes("orders:read"))]
struct TrackOrder {
    /// The order's ID, as shown to the customer. Left out: the order on its way, or
    /// the user is asked which one.
    #[validate(regex(
        pattern = r"^ORD-[0-9]{4}-[0-9]{5}$",
        hint = "Order IDs look like ORD-2026-00042; use find_orders to look one up."
    ))]
    order_id: Option<String>,
}

/// One order as `find_orders` lists it.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct OrderSummary {
    order_id: String,
    status: String,
    placed_on: String,
    total_cents: i64,
}

/// What `export_orders` wrote.
#[derive(Serialize, schemars::JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
struct Exported {
    /// How many orders.
    orders: usize,
    /// One line a order, under a header: `order_id,status,placed_on,total_cents`.
    csv: String,
}

/// How long `export_orders` takes for each quarter of its orders: two seconds in all.
const EXPORT_STEP: Duration = Duration::from_millis(500);

/// What `cancel_order` did.
#[derive(Serialize, schemars::JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
struct Cancelled {
    order_id: String,
    previous_status: String,
    status: String,
    /// Refunded to the customer's card, in cents.
    refund_cents: i64,
}

/// What `track_order` found.
#[derive(Serialize, schemars::JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
struct Tracking {
    order: OrderSummary,
    shipment: Option<Shipment>,
    /// The carrier's last scan.
    carrier_status: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema, Debug, Clone)]
#[serde(rename_all = "camelCase")]
struct Shipment {
    carrier: String,
    tracking_number: String,
}

/// The desk: one signed-in customer and the database.
pub(crate) struct Desk {
    customer: String,
    db: Mutex<Connection>,
}

impl Desk {
    /// The desk on the database at `path`, created and seeded if new. A database that
    /// cannot be written (a read-only filesystem, a full disk) is still opened, for
    /// reading: finding and tracking orders go on, and a cancel is refused with what
    /// happened, the file unchanged.
    fn open(path: &str, customer: &str) -> rusqlite::Result<Desk> {
        let db = open_database(path)?;
        // Replicas may share the file: a writer waits for another's transaction, and
        // in WAL mode readers never wait for a writer. A file that cannot take the WAL
        // (read-only, or no room for its side files) keeps the mode it has.
        db.busy_timeout(Duration::from_secs(10))?;
        if let Err(e) = db.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(())) {
            eprintln!(
                "orders: {path} stays in its journal mode ({e}); replicas on it wait for each other's reads"
            );
        }
        if !is_seeded(&db) {
            create_and_seed(&db)?;
        }
        Ok(Desk {
            customer: customer.to_owned(),
            db: Mutex::new(db),
        })
    }

    fn db(&self) -> MutexGuard<'_, Connection> {
        // A handler that panicked while holding the lock left no transaction open
        // (rusqlite rolls back on drop), so the connection is still good.
        self.db
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The business layer's first two checks, shared by the tools that take an order:
    /// the order exists, and the caller may see it. Returns the owner's view of it.
    fn order_for_caller(
        &self,
        db: &Connection,
        order_id: &str,
        caller: &Caller,
    ) -> Result<Order, ToolError> {
        let order = find_order(db, order_id).map_err(storage_error)?;
        let Some(order) = order else {
            return Err(
                ToolError::validation(format!("No order has the ID {order_id}.")).with_violation(
                    Violation {
                        path: "/orderId".into(),
                        rule: "exists".into(),
                        message: format!(
                            "no order has the ID {order_id}; check the ID with the user, or \
                         use find_orders to list their orders."
                        ),
                        expected: json!("the ID of an existing order"),
                        received: Some(json!(order_id)),
                    },
                ),
            );
        };
        if order.customer_id != caller.subject() {
            // Nothing about the order: not its state, not its owner.
            return Err(ToolError::permission(format!(
                "You may not act on order {order_id} from this account."
            ))
            .with_hint("If the user believes it is theirs, they should contact support."));
        }
        Ok(order)
    }

    async fn cancel_order(
        self: Arc<Self>,
        caller: Caller,
        args: CancelOrder,
    ) -> Result<Cancelled, ToolError> {
        let mut db = self.db();
        // Immediate: the write lock is taken before the order's state is read, so that
        // another process sharing the file waits rather than fails.
        let tx = db
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(storage_error)?;
        let order = self.order_for_caller(&tx, &args.order_id, &caller)?;
        if !CANCELLABLE.contains(&order.status.as_str()) {
            return Err(ToolError::business(format!(
                "Order {} is {} and can no longer be cancelled; only {} orders can.",
                args.order_id,
                order.status,
                CANCELLABLE.join(" or ")
            ))
            .with_hint(match order.status.as_str() {
                "SHIPPED" | "DELIVERED" => "Offer the user a return once it is delivered.",
                _ => "Tell the user; there is nothing to cancel.",
            }));
        }
        // Every check passed: the one write, guarded by the state read above.
        tx.execute(
            "UPDATE orders SET status = 'CANCELLED', cancel_reason = ?2 WHERE id = ?1",
            params![args.order_id, args.reason],
        )
        .map_err(storage_error)?;
        tx.execute(
            "INSERT INTO refunds (order_id, cents) VALUES (?1, ?2)",
            params![args.order_id, order.total_cents],
        )
        .map_err(storage_error)?;
        tx.commit().map_err(storage_error)?;
        Ok(Cancelled {
            order_id: args.order_id,
            previous_status: order.status,
            status: "CANCELLED".into(),
            refund_cents: order.total_cents,
        })
    }

    /// The customer's orders in `status` placed on or after `since` (each `None`: any),
    /// newest first, at most `limit` of them.
    fn summaries(
        &self,
        customer: &str,
        status: Option<&str>,
        since: Option<&str>,
        limit: u32,
    ) -> Result<Vec<OrderSummary>, ToolError> {
        let db = self.db();
        let mut statement = db
            .prepare(
                "SELECT id, status, placed_on, total_cents FROM orders
                 WHERE customer_id = ?1 AND (?2 IS NULL OR status = ?2)
                   AND (?3 IS NULL OR placed_on >= ?3)
                 ORDER BY placed_on DESC, id DESC LIMIT ?4",
            )
            .map_err(storage_error)?;
        let rows = statement
            .query_map(
                params![customer, status, since, limit],
                OrderSummary::from_row,
            )
            .map_err(storage_error)?;
        rows.collect::<Result<_, _>>().map_err(storage_error)
    }

    async fn find_orders(
        self: Arc<Self>,
        caller: Caller,
        args: FindOrders,
    ) -> Result<Vec<OrderSummary>, ToolError> {
        let rows = self.summaries(
            caller.subject(),
            args.status.as_deref(),
            args.placed_since.as_deref(),
            args.limit.unwrap_or(20).into(),
        )?;
        let excluded = args.exclude.unwrap_or_default();
        // No match is an empty list: a success with empty content, not an error.
        Ok(rows
            .into_iter()
            .filter(|order| !excluded.contains(&order.status))
            .collect())
    }

    async fn export_orders(
        self: Arc<Self>,
        caller: Caller,
        cancelled: mcp_tool::Cancelled,
        progress: mcp_tool::Progress,
        args: ExportOrders,
    ) -> Result<Exported, ToolError> {
        let mut rows = self.summaries(
            caller.subject(),
            args.status.as_deref(),
            args.placed_since.as_deref(),
            u32::MAX,
        )?;
        rows.reverse();
        let mut csv = String::from("order_id,status,placed_on,total_cents\n");
        let quarter = rows.len().div_ceil(4).max(1);
        for (i, chunk) in rows.chunks(quarter).chain([&[][..]; 4]).take(4).enumerate() {
            // The slow part of a real export (a file written, a report built), in steps
            // that each stop at once if the caller cancelled: nothing is returned as done.
            tokio::select! {
                () = cancelled.clone() => {
                    return Err(ToolError::transient("The export was cancelled: nothing was exported."));
                }
                () = tokio::time::sleep(EXPORT_STEP) => {}
            }
            for order in chunk {
                csv.push_str(&format!(
                    "{},{},{},{}\n",
                    order.order_id, order.status, order.placed_on, order.total_cents
                ));
            }
            // To the client that asked to hear of it, or the task's status.
            let (done, total) = ((quarter * (i + 1)).min(rows.len()), rows.len());
            let said = format!("Exported {done} of {total} orders");
            progress.report(done as f64, Some(total as f64), said).await;
        }
        Ok(Exported {
            orders: rows.len(),
            csv,
        })
    }

    async fn find_order(
        self: Arc<Self>,
        caller: Caller,
        args: FindOrder,
    ) -> Result<Found, ToolError> {
        let db = self.db();
        let (sql, key) = match &args {
            FindOrder::Id { order_id } => (
                "SELECT id, status, placed_on, total_cents FROM orders
                 WHERE customer_id = ?1 AND id = ?2",
                order_id,
            ),
            FindOrder::Tracking { tracking_number } => (
                "SELECT o.id, o.status, o.placed_on, o.total_cents
                 FROM orders o JOIN shipments s ON s.order_id = o.id
                 WHERE o.customer_id = ?1 AND s.tracking_number = ?2",
                tracking_number,
            ),
        };
        let order = db
            .query_row(sql, params![caller.subject(), key], OrderSummary::from_row)
            .optional()
            .map_err(storage_error)?;
        Ok(Found { order })
    }

    /// The customer's orders on their way, oldest first.
    fn shipped(&self, caller: &Caller) -> Result<Vec<OrderSummary>, ToolError> {
        let db = self.db();
        let mut statement = db
            .prepare(
                "SELECT id, status, placed_on, total_cents FROM orders
                 WHERE customer_id = ?1 AND status = 'SHIPPED' ORDER BY placed_on",
            )
            .map_err(storage_error)?;
        let rows = statement
            .query_map(params![caller.subject()], OrderSummary::from_row)
            .map_err(storage_error)?;
        rows.collect::<Result<_, _>>().map_err(storage_error)
    }

    /// Which order to track: the one named, the one on its way, or the one the user
    /// chooses among those on their way (the business layer asking the user).
    async fn order_to_track(
        &self,
        named: Option<String>,
        caller: &Caller,
        ask: &Ask,
    ) -> Result<String, ToolError> {
        if let Some(order_id) = named {
            return Ok(order_id);
        }
        let shipped = self.shipped(caller)?;
        let chosen = match shipped.as_slice() {
            [] => {
                return Err(ToolError::validation(
                    "The customer has no order on its way: say which order to track with orderId.",
                )
                .with_hint("Use find_orders to list their orders."));
            }
            [one] => one,
            several => {
                let label = |o: &OrderSummary| {
                    let label = format!(
                        "{}, placed {}, {}.{:02} EUR",
                        o.order_id,
                        o.placed_on,
                        o.total_cents / 100,
                        o.total_cents % 100
                    );
                    (o.order_id.clone(), label)
                };
                match ask
                    .choose("Which order do you want to track?", several, label)
                    .await
                {
                    Ok(order) => order,
                    // The client cannot ask: the model asks, from the list.
                    Err(e) if e.cannot_ask() => {
                        let ids: Vec<&str> = several.iter().map(|o| o.order_id.as_str()).collect();
                        return Err(ToolError::validation(format!(
                            "The customer has {} orders on their way ({}): say which with orderId.",
                            ids.len(),
                            ids.join(", ")
                        ))
                        .with_hint("Ask the user which one they mean."));
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        };
        Ok(chosen.order_id.clone())
    }

    async fn track_order(
        self: Arc<Self>,
        caller: Caller,
        ask: Ask,
        args: TrackOrder,
    ) -> Result<Tracking, ToolError> {
        let order_id = self.order_to_track(args.order_id, &caller, &ask).await?;
        let (order, shipment) = {
            let db = self.db();
            let order = self.order_for_caller(&db, &order_id, &caller)?;
            let shipment = find_shipment(&db, &order_id).map_err(storage_error)?;
            (order, shipment)
        };
        let mut tracking = Tracking {
            order: order.summary(),
            shipment: shipment.clone(),
            carrier_status: None,
        };
        if let Some(shipment) = shipment {
            match carrier_feed(&self.db(), &shipment) {
                Ok(status) => tracking.carrier_status = status,
                Err(carrier) => {
                    return Err(ToolError::transient(format!(
                        "The tracking service of {carrier} is not answering; the order and \
                         its shipment were found."
                    ))
                    .for_call("track_order", json!({ "orderId": order_id }))
                    .with_partial_results(&tracking)
                    .retry_after(Duration::from_secs(30)));
                }
            }
        }
        Ok(tracking)
    }
}

impl OrderSummary {
    /// A row of `SELECT id, status, placed_on, total_cents`.
    fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(OrderSummary {
            order_id: row.get(0)?,
            status: row.get(1)?,
            placed_on: row.get(2)?,
            total_cents: row.get(3)?,
        })
    }
}

struct Order {
    id: String,
    customer_id: String,
    status: String,
    placed_on: String,
    total_cents: i64,
}

impl Order {
    fn summary(&self) -> OrderSummary {
        OrderSummary {
            order_id: self.id.clone(),
            status: self.status.clone(),
            placed_on: self.placed_on.clone(),
            total_cents: self.total_cents,
        }
    }
}

fn find_order(db: &Connection, id: &str) -> rusqlite::Result<Option<Order>> {
    db.query_row(
        "SELECT id, customer_id, status, placed_on, total_cents FROM orders WHERE id = ?1",
        [id],
        |row| {
            Ok(Order {
                id: row.get(0)?,
                customer_id: row.get(1)?,
                status: row.get(2)?,
                placed_on: row.get(3)?,
                total_cents: row.get(4)?,
            })
        },
    )
    .optional()
}

fn find_shipment(db: &Connection, order_id: &str) -> rusqlite::Result<Option<Shipment>> {
    db.query_row(
        "SELECT carrier, tracking_number FROM shipments WHERE order_id = ?1",
        [order_id],
        |row| {
            Ok(Shipment {
                carrier: row.get(0)?,
                tracking_number: row.get(1)?,
            })
        },
    )
    .optional()
}

/// The carrier's tracking service; the seed data has one carrier that is down.
fn carrier_feed(db: &Connection, shipment: &Shipment) -> Result<Option<String>, String> {
    let feed: Option<(bool, Option<String>)> = db
        .query_row(
            "SELECT c.available, s.last_scan FROM carriers c
             LEFT JOIN scans s ON s.tracking_number = ?2
             WHERE c.name = ?1",
            params![shipment.carrier, shipment.tracking_number],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()
        .map_err(|_| shipment.carrier.clone())?;
    match feed {
        Some((true, scan)) => Ok(scan),
        _ => Err(shipment.carrier.clone()),
    }
}

/// A database failure: passing, and nothing about it is shown but what the caller can
/// act on.
fn storage_error(error: rusqlite::Error) -> ToolError {
    eprintln!("orders: database error: {error}");
    use rusqlite::ErrorCode::{DiskFull, ReadOnly};
    if let rusqlite::Error::SqliteFailure(e, _) = &error
        && matches!(e.code, ReadOnly | DiskFull)
    {
        return ToolError::transient(
            "The order database cannot take changes now (its storage is read-only or full); nothing was changed. Finding and tracking orders still work.",
        )
        .with_hint("Tell the user the change could not be made now; try again later.")
        .retry_after(Duration::from_secs(60));
    }
    ToolError::transient("The order database did not answer; nothing was changed.")
        .retry_after(Duration::from_secs(5))
}

/// The database at `path`, for reading and writing where the filesystem lets it; a
/// file it does not (read-only, or a WAL database whose side files cannot be made
/// there) is opened read-only and as immutable, which needs no side file.
fn open_database(path: &str) -> rusqlite::Result<Connection> {
    use rusqlite::OpenFlags;
    let writable = Connection::open(path).and_then(|db| {
        db.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })?;
        Ok(db)
    });
    match writable {
        Ok(db) => Ok(db),
        Err(e) if path != ":memory:" && std::path::Path::new(path).exists() => {
            eprintln!("orders: {path} cannot be opened for writing ({e}); serving it read-only");
            let uri = format!("file:{path}?immutable=1");
            let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
            Connection::open_with_flags(uri, flags)
        }
        Err(e) => Err(e),
    }
}

/// Whether the database holds the desk's tables and orders already (a database that
/// cannot be written is never written to at start).
fn is_seeded(db: &Connection) -> bool {
    db.query_row("SELECT count(*) FROM orders", [], |r| r.get::<_, i64>(0))
        .is_ok_and(|n| n > 0)
}

fn create_and_seed(db: &Connection) -> rusqlite::Result<()> {
    let statuses = STATUSES
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ");
    db.execute_batch(&format!(
        "CREATE TABLE IF NOT EXISTS orders (
             id TEXT PRIMARY KEY,
             customer_id TEXT NOT NULL,
             status TEXT NOT NULL CHECK (status IN ({statuses})),
             placed_on TEXT NOT NULL,
             total_cents INTEGER NOT NULL,
             cancel_reason TEXT
         );
         CREATE TABLE IF NOT EXISTS shipments (
             order_id TEXT PRIMARY KEY REFERENCES orders(id),
             carrier TEXT NOT NULL,
             tracking_number TEXT NOT NULL
         );
         CREATE TABLE IF NOT EXISTS refunds (
             id INTEGER PRIMARY KEY,
             order_id TEXT NOT NULL REFERENCES orders(id),
             cents INTEGER NOT NULL
         );
         CREATE TABLE IF NOT EXISTS carriers (name TEXT PRIMARY KEY, available INTEGER NOT NULL);
         CREATE TABLE IF NOT EXISTS scans (tracking_number TEXT PRIMARY KEY, last_scan TEXT NOT NULL);"
    ))?;
    let seeded: i64 = db.query_row("SELECT count(*) FROM orders", [], |row| row.get(0))?;
    if seeded > 0 {
        return Ok(());
    }
    db.execute_batch(
        "BEGIN;
         INSERT INTO orders VALUES
             ('ORD-2026-00042', 'C-1001', 'PAID',      '2026-11-20', 12900, NULL),
             ('ORD-2026-00043', 'C-1001', 'SHIPPED',   '2026-11-12', 4500,  NULL),
             ('ORD-2026-00044', 'C-1001', 'PENDING',   '2026-11-28', 2300,  NULL),
             ('ORD-2026-00045', 'C-1001', 'DELIVERED', '2026-10-02', 8800,  NULL),
             ('ORD-2026-00050', 'C-1001', 'SHIPPED',   '2026-11-15', 1999,  NULL),
             ('ORD-2026-00077', 'C-2002', 'PAID',      '2026-11-21', 56000, NULL);
         INSERT INTO shipments VALUES
             ('ORD-2026-00043', 'RapidPost', 'RP123456789'),
             ('ORD-2026-00045', 'RapidPost', 'RP987654321'),
             ('ORD-2026-00050', 'SlowFreight', 'SF000111222');
         INSERT INTO carriers VALUES ('RapidPost', 1), ('SlowFreight', 0);
         INSERT INTO scans VALUES
             ('RP123456789', 'In transit, Lyon hub, 2026-11-29'),
             ('RP987654321', 'Delivered, 2026-10-05');
         COMMIT;",
    )
}

fn toolbox(desk: Desk) -> Toolbox<Desk> {
    // Without a token (the demo, stdio, HTTP without --issuer) every call is the
    // signed-in customer's, who may read and cancel: the operator's choice, said here.
    let customer = Caller::new(desk.customer.clone()).with_scopes(["orders:read", "orders:write"]);
    let tools = Toolbox::with_state(desk)
        .named("orders", env!("CARGO_PKG_VERSION"))
        .unverified_calls(Unverified::As(customer))
        .tool(Desk::cancel_order)
        .tool(Desk::find_orders)
        .tool(Desk::find_order)
        .tool(Desk::track_order)
        .tool(Desk::export_orders);
    serve::state_key(tools)
}

/// The flags of `orders` (and of `axum_app`, which serves the same desk).
pub(crate) const FLAGS: &[(&str, &str)] = &[
    ("--db", "PATH"),
    ("--customer", "ID"),
    ("--redis", "URL"),
    ("--state-key", "HEX"),
    ("--issuer", "URL"),
    ("--resource", "URI"),
    ("--task-ttl-ms", "MS"),
];

/// The desk as the command line asks for it: its tools, and the HTTP server they are
/// served by at `addr`: with `--issuer`, under authorization (the caller the token's
/// subject, a customer ID as the database knows them); with `--redis`, its sessions
/// in Redis, where every replica finds them.
pub(crate) fn desk_for(
    command: &serve::CommandLine,
    addr: Option<std::net::SocketAddr>,
) -> Result<(Toolbox<Desk>, mcp_tool::http::HttpServer), Box<dyn Error>> {
    let [db, customer, redis, state_key, issuer, resource, task_ttl] =
        <[Option<String>; 7]>::try_from(command.values.clone()).expect("seven flags");
    let customer = customer.unwrap_or_else(|| "C-1001".into());
    let default_db = std::env::temp_dir().join("mcp-tool-orders.sqlite3");
    let path = db.unwrap_or_else(|| default_db.display().to_string());
    // An https:// issuer is read over TLS (this example is built with the feature
    // `https`), a plain http:// one only on this host: any other stops the server at
    // its start, saying why.
    let desk = Desk::open(&path, &customer)?;
    eprintln!("orders: serving customer {customer} from {path}");
    let tools = replicas(toolbox(desk), redis.as_deref(), state_key.as_deref())?;
    let mut limits = mcp_tool::tasks::TaskLimits::default();
    if let Some(ms) = task_ttl {
        let ms: u64 = (ms.parse()).map_err(|_| format!("--task-ttl-ms {ms}: milliseconds"))?;
        limits = limits.ttl(Duration::from_millis(ms));
    }
    // With --redis, the tasks too are where every replica sees them.
    let tools = match &redis {
        Some(url) => tools.tasks(mcp_tool::tasks::Tasks::new(
            mcp_tool::tasks::RedisTasks::new(url)?,
            limits,
        )),
        None => tools.tasks(mcp_tool::tasks::Tasks::new(
            mcp_tool::tasks::MemoryTasks::new(),
            limits,
        )),
    };
    let tools = serve::profiled(tools, command);
    let mut server = mcp_tool::http::HttpServer::new();
    if let Some(redis) = &redis {
        // Sessions of 2025-11-25 open on every replica, answers handed to the one
        // that asked.
        server = server.sessions(mcp_tool::http::Sessions::redis(redis)?);
    }
    let (Some(issuer), Some(addr)) = (issuer, addr) else {
        return Ok((tools, server));
    };
    let resource = resource.unwrap_or_else(|| format!("http://{addr}/mcp"));
    // The scopes are those each tool's type declares: nothing here names them again.
    let auth = mcp_tool::http::auth::Authorization::jwt(issuer, resource)
        .challenge_scopes(["orders:read"]);
    let tools = tools.unverified_calls(Unverified::Refused);
    Ok((tools, server.authorization(auth)))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let command = serve::command_line("orders", FLAGS);
    match command.mode {
        serve::Mode::Stdio => return serve::stdio(desk_for(&command, None)?.0).await,
        serve::Mode::Http(addr) => {
            let (tools, server) = desk_for(&command, Some(addr))?;
            return serve::http_with(server, tools, addr).await;
        }
        serve::Mode::Demo => {}
    }

    // The printed demo works on a fresh database in memory, with a user who says yes.
    let customer = command.values[1].clone().unwrap_or_else(|| "C-1001".into());
    let tools = serve::profiled(toolbox(Desk::open(":memory:", &customer)?), &command);
    for (name, arguments) in demo_calls() {
        println!("== {name} {arguments}");
        let result: Value = match call_asking(&tools, name, arguments, User::Agrees(true)).await {
            Ok(result) => result,
            Err(error) => error.to_jsonrpc_error(),
        };
        println!("{}\n", serde_json::to_string_pretty(&result)?);
    }
    Ok(())
}

/// The desk as one of several replicas: `--state-key HEX` seals the state of a call
/// waiting for its user with the key every replica has (64 hex digits; `NEW,OLD` while
/// rotating), and `--redis URL` records confirmed rounds where every replica sees them,
/// so that a confirmation sent again to another replica is not run twice.
fn replicas(
    tools: Toolbox<Desk>,
    redis: Option<&str>,
    state_key: Option<&str>,
) -> Result<Toolbox<Desk>, Box<dyn Error>> {
    let tools = match state_key {
        Some(hex) => tools.state_key(mcp_tool::StateKey::from_hex(hex)?),
        None if redis.is_some() && std::env::var_os("MCP_TOOL_STATE_KEY").is_none() => {
            return Err(
                "--redis shares confirmed rounds between replicas, which must share \
                        the key that seals them: give --state-key HEX too"
                    .into(),
            );
        }
        None => tools,
    };
    Ok(match redis {
        Some(url) => {
            eprintln!("orders: confirmed rounds recorded in Redis");
            tools.used_states(mcp_tool::ask::RedisStates::new(url)?)
        }
        None => tools,
    })
}

/// The user at the client, as the demo and the tests play them: each question is
/// answered within the call, as a client of protocol 2025-11-25 answers.
#[derive(Clone, Copy)]
enum User {
    /// Says yes; prints the question if `true`.
    Agrees(bool),
    /// Says no (the tests' user).
    #[cfg_attr(not(test), allow(dead_code))]
    Declines,
}

impl Elicit for User {
    fn elicit(
        &self,
        params: Value,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Value, String>> + Send>> {
        let answer = match self {
            User::Agrees(print) => {
                if *print {
                    println!("(the user is asked: {})", params["message"]);
                }
                // A choice: the first one offered.
                match params.pointer("/requestedSchema/properties/choice/oneOf/0/const") {
                    Some(first) => json!({"action": "accept", "content": {"choice": first}}),
                    None => json!({"action": "accept", "content": {}}),
                }
            }
            User::Declines => json!({"action": "decline"}),
        };
        Box::pin(async move { Ok(answer) })
    }
}

/// A call whose questions `user` answers: its result as JSON.
async fn call_asking(
    tools: &Toolbox<Desk>,
    name: &str,
    arguments: Value,
    user: User,
) -> Result<Value, mcp_tool::CallError> {
    let reach = Reach::Live(Arc::new(user));
    match tools
        .call_reaching(SchemaProfile::Portable, name, arguments, reach)
        .await?
    {
        Answer::Complete(result) => Ok(result.to_value()),
        Answer::InputRequired(asked) => Ok(asked.to_value()),
    }
}

/// The calls of the printed session: every tool, every kind of failure.
fn demo_calls() -> [(&'static str, Value); 10] {
    [
        ("find_orders", json!({"status": "SHIPPED"})),
        ("find_orders", json!({"status": "RETURNED"})),
        ("find_orders", json!({"status": "CANCELLED"})),
        (
            "cancel_order",
            json!({"orderId": "ORD-2026-00042", "reason": "ordered twice"}),
        ),
        (
            "cancel_order",
            json!({"orderId": "ORD-2026-00043", "reason": "too slow"}),
        ),
        (
            "cancel_order",
            json!({"orderId": "ORD-2026-00077", "reason": "not mine?"}),
        ),
        (
            "cancel_order",
            json!({"orderId": "ORD-2026-99999", "reason": "typo"}),
        ),
        ("cancel_order", json!({"orderId": "42", "reason": "x"})),
        ("track_order", json!({"orderId": "ORD-2026-00050"})),
        // No ID, two orders on their way: the user is asked which.
        ("track_order", json!({})),
    ]
}

#[cfg(test)]
#[path = "../tests/support/conforms.rs"]
mod conforms;

#[cfg(test)]
mod tests {
    use super::*;

    fn desk() -> Toolbox<Desk> {
        toolbox(Desk::open(":memory:", "C-1001").expect("an in-memory database"))
    }

    /// Every order row, as it is in the database.
    fn snapshot(tools: &Toolbox<Desk>) -> Vec<(String, String, Option<String>)> {
        let db = tools.state().db();
        let mut statement = db
            .prepare("SELECT id, status, cancel_reason FROM orders ORDER BY id")
            .unwrap();
        statement
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    /// A call from a client whose user agrees to every question.
    async fn call(tools: &Toolbox<Desk>, name: &str, arguments: Value) -> Value {
        call_asking(tools, name, arguments, User::Agrees(false))
            .await
            .unwrap()
    }

    /// A small filesystem of its own (tmpfs, mounted by root as CI runs), unmounted
    /// at the end; `None` where this process may not mount (the test is then skipped,
    /// except under CI).
    struct Mount(std::path::PathBuf);

    impl Mount {
        fn new(name: &str, size: &str) -> Option<Mount> {
            let dir = std::env::temp_dir().join(format!("orders-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let mounted = std::process::Command::new("mount")
                .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
                .arg(&dir)
                .status()
                .is_ok_and(|s| s.success());
            if !mounted {
                assert!(std::env::var_os("CI").is_none(), "CI mounts a tmpfs");
                eprintln!("skipped: this process cannot mount a filesystem");
                return None;
            }
            Some(Mount(dir))
        }

        fn read_only(&self) {
            let status = std::process::Command::new("mount")
                .args(["-o", "remount,ro"])
                .arg(&self.0)
                .status()
                .unwrap();
            assert!(status.success());
        }
    }

    impl Drop for Mount {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(&self.0).status();
            let _ = std::fs::remove_dir(&self.0);
        }
    }

    /// On a database its filesystem will not let it write, the desk still starts, finds
    /// and tracks orders, and refuses a cancel saying so, the file unchanged.
    async fn serves_reads_and_refuses_a_cancel(path: &std::path::Path, before: &[u8]) {
        let tools = toolbox(Desk::open(path.to_str().unwrap(), "C-1001").expect("the desk starts"));
        let found = call(
            &tools,
            "find_order",
            json!({"by": "id", "orderId": "ORD-2026-00042"}),
        )
        .await;
        assert_eq!(found["isError"], false, "{found}");
        let tracked = call(&tools, "track_order", json!({"orderId": "ORD-2026-00043"})).await;
        assert_eq!(tracked["isError"], false, "{tracked}");
        let cancel = json!({"orderId": "ORD-2026-00042", "reason": "changed my mind"});
        let refused = call(&tools, "cancel_order", cancel).await;
        assert_eq!(refused["isError"], true, "{refused}");
        let text = refused["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("read-only or full"), "{text}");
        assert!(text.contains("nothing was changed"), "{text}");
        drop(tools);
        assert!(
            std::fs::read(path).unwrap() == before,
            "the file is unchanged"
        );
    }

    #[tokio::test]
    async fn on_a_read_only_filesystem_the_desk_serves_reads_and_refuses_a_cancel() {
        let Some(mount) = Mount::new("ro", "4m") else {
            return;
        };
        let path = mount.0.join("orders.sqlite3");
        drop(Desk::open(path.to_str().unwrap(), "C-1001").unwrap());
        mount.read_only();
        let before = std::fs::read(&path).unwrap();
        serves_reads_and_refuses_a_cancel(&path, &before).await;
    }

    #[tokio::test]
    async fn on_a_full_filesystem_the_desk_serves_reads_and_refuses_a_cancel() {
        let Some(mount) = Mount::new("full", "1m") else {
            return;
        };
        let path = mount.0.join("orders.sqlite3");
        drop(Desk::open(path.to_str().unwrap(), "C-1001").unwrap());
        // Every byte left taken.
        let mut filler = std::fs::File::create(mount.0.join("filler")).unwrap();
        let block = vec![0u8; 4096];
        while std::io::Write::write_all(&mut filler, &block).is_ok() {}
        let _ = filler.sync_all();
        let before = std::fs::read(&path).unwrap();
        serves_reads_and_refuses_a_cancel(&path, &before).await;
    }

    #[tokio::test]
    async fn track_order_asks_which_order_when_several_are_on_their_way() {
        let tools = desk();
        // The user picks the first offered: the oldest, ORD-2026-00043.
        let chosen = call(&tools, "track_order", json!({})).await;
        assert_eq!(chosen["isError"], false, "{chosen}");
        assert_eq!(
            chosen["structuredContent"]["order"]["orderId"],
            "ORD-2026-00043"
        );
        // A client that cannot ask: the model is given the candidates to ask about.
        let unasked = tools.call("track_order", json!({})).await.unwrap();
        assert!(unasked.is_error);
        let text = unasked.text();
        assert!(text.contains("ORD-2026-00043, ORD-2026-00050"), "{text}");
        assert!(text.contains("Ask the user which one they mean."), "{text}");
    }

    #[tokio::test]
    async fn an_order_is_untouched_unless_the_user_confirms() {
        let tools = desk();
        let before = snapshot(&tools);
        let arguments = json!({"orderId": "ORD-2026-00042", "reason": "ordered twice"});
        let declined = call_asking(&tools, "cancel_order", arguments.clone(), User::Declines)
            .await
            .unwrap();
        assert_eq!(category(&declined), "permission");
        assert!(
            declined["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("declined")
        );
        // A client that cannot ask: refused, and said why.
        let unasked = tools.call("cancel_order", arguments.clone()).await.unwrap();
        assert!(unasked.is_error);
        assert!(
            unasked
                .text()
                .contains("Cancel order ORD-2026-00042? Reason: ordered twice")
        );
        assert_eq!(snapshot(&tools), before);
        let confirmed = call(&tools, "cancel_order", arguments).await;
        assert_eq!(confirmed["isError"], false);
        assert_ne!(snapshot(&tools), before);
    }

    fn category(result: &Value) -> &str {
        assert_eq!(result["isError"], true, "{result}");
        result["structuredContent"]["errorCategory"]
            .as_str()
            .unwrap()
    }

    #[tokio::test]
    async fn every_result_matches_the_advertised_output_schema() {
        let tools = desk();
        let listed = serde_json::to_value(tools.list()).unwrap();
        let mut calls = demo_calls().to_vec();
        calls.push(("track_order", json!({"orderId": "ORD-2026-00043"})));
        calls.push(("find_orders", json!({"status": "paid"})));
        calls.push((
            "find_order",
            json!({"by": "tracking", "trackingNumber": "RP123456789"}),
        ));
        calls.push((
            "find_order",
            json!({"by": "id", "orderId": "ORD-2026-00099"}),
        ));
        calls.push((
            "find_order",
            json!({"by": "tracking_number", "trackingNumber": "x"}),
        ));
        for (name, arguments) in calls {
            let tool = listed
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["name"] == name)
                .unwrap();
            let result = call(&tools, name, arguments).await;
            super::conforms::assert_conforms(tool, &result);
        }
    }

    #[tokio::test]
    async fn an_order_is_found_by_either_form_of_find_order() {
        let tools = desk();
        let schema = &tools.get("find_order").unwrap().input_schema;
        assert_eq!(
            schema["properties"]["by"]["enum"],
            json!(["id", "tracking"])
        );
        assert_eq!(
            schema["properties"]["trackingNumber"]["description"],
            "Only with by = \"tracking\". Required with by = \"tracking\"."
        );
        let by_tracking = call(
            &tools,
            "find_order",
            json!({"by": "tracking", "trackingNumber": "RP123456789"}),
        )
        .await;
        assert_eq!(
            by_tracking["structuredContent"]["order"]["orderId"],
            "ORD-2026-00043"
        );
        let by_id = call(
            &tools,
            "find_order",
            json!({"by": "id", "orderId": "ORD-2026-00043"}),
        )
        .await;
        assert_eq!(by_id["structuredContent"], by_tracking["structuredContent"]);
        // Another customer's order, or none: nothing, as a success.
        let none = call(
            &tools,
            "find_order",
            json!({"by": "id", "orderId": "ORD-2026-00077"}),
        )
        .await;
        assert_eq!(none["isError"], false);
        assert_eq!(none["structuredContent"]["order"], Value::Null);
        // The wrong form, and the other form's field: both said at once.
        let wrong = call(
            &tools,
            "find_order",
            json!({"by": "trackingNumber", "trackingNumber": "RP123456789"}),
        )
        .await;
        assert_eq!(category(&wrong), "validation");
        let violations = wrong["structuredContent"]["violations"].as_array().unwrap();
        assert_eq!(violations[0]["path"], "/by");
        assert!(
            violations[0]["message"]
                .as_str()
                .unwrap()
                .ends_with("Did you mean \"tracking\"? That form holds \"trackingNumber\".")
        );
    }

    #[tokio::test]
    async fn a_failed_check_at_any_layer_writes_nothing() {
        let tools = desk();
        let before = snapshot(&tools);
        let failures = [
            // Schema and semantic layers.
            (json!({"orderId": "42", "reason": "x"}), "validation"),
            (json!({"orderId": "ORD-2026-00042"}), "validation"),
            // Business layer: no such order, not the caller's, not cancellable.
            (
                json!({"orderId": "ORD-2026-99999", "reason": "typo"}),
                "validation",
            ),
            (
                json!({"orderId": "ORD-2026-00077", "reason": "mine"}),
                "permission",
            ),
            (
                json!({"orderId": "ORD-2026-00043", "reason": "late"}),
                "business",
            ),
        ];
        for (arguments, expected) in failures {
            let result = call(&tools, "cancel_order", arguments.clone()).await;
            assert_eq!(category(&result), expected, "{arguments}");
            assert_eq!(snapshot(&tools), before, "{arguments} changed the database");
        }
    }

    #[tokio::test]
    async fn a_cancel_that_passes_every_check_writes_once() {
        let tools = desk();
        let before = snapshot(&tools);
        let arguments = json!({"orderId": "ORD-2026-00042", "reason": "ordered twice"});
        let result = call(&tools, "cancel_order", arguments.clone()).await;
        assert_eq!(result["isError"], false);
        assert_eq!(result["structuredContent"]["previousStatus"], "PAID");
        let after = snapshot(&tools);
        let changed: Vec<_> = after.iter().filter(|row| !before.contains(row)).collect();
        assert_eq!(
            changed,
            [&(
                "ORD-2026-00042".to_owned(),
                "CANCELLED".to_owned(),
                Some("ordered twice".to_owned())
            )]
        );
        // The same call again is now refused by the business layer, naming the state.
        let again = call(&tools, "cancel_order", arguments).await;
        assert_eq!(category(&again), "business");
        assert!(
            again["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("CANCELLED")
        );
        assert_eq!(snapshot(&tools), after);
    }

    #[tokio::test]
    async fn the_permission_error_reveals_nothing_about_the_order() {
        let tools = desk();
        let result = call(
            &tools,
            "cancel_order",
            json!({"orderId": "ORD-2026-00077", "reason": "mine"}),
        )
        .await;
        assert_eq!(category(&result), "permission");
        let shown = result.to_string();
        for secret in ["PAID", "C-2002", "56000", "2026-11-21"] {
            assert!(!shown.contains(secret), "{secret} leaked: {shown}");
        }
        // Tracking it is refused the same way.
        let tracked = call(&tools, "track_order", json!({"orderId": "ORD-2026-00077"})).await;
        assert_eq!(category(&tracked), "permission");
        assert_eq!(tracked["content"], result["content"]);
    }

    #[tokio::test]
    async fn the_status_whitelist_is_the_business_constant() {
        let tools = desk();
        let schema = &tools.get("find_orders").unwrap().input_schema;
        // An optional property: its enum stands in the branch that is not null.
        assert_eq!(
            schema["properties"]["status"]["anyOf"][0]["enum"],
            json!(STATUSES)
        );
        for status in STATUSES {
            let result = call(&tools, "find_orders", json!({ "status": status })).await;
            assert_eq!(result["isError"], false, "{status}");
        }
        // One allowed value in another letter case is read as it, and said to be.
        let result = call(&tools, "find_orders", json!({"status": "paid"})).await;
        assert_eq!(result["isError"], false);
        assert_eq!(
            result["_meta"]["mcp-tool/repairs"][0]["repair"],
            "read as \"PAID\", the allowed value this was in another letter case; send \"PAID\""
        );
        let result = call(&tools, "find_orders", json!({"status": "PAYED"})).await;
        assert_eq!(category(&result), "validation");
    }

    #[tokio::test]
    async fn no_match_is_an_empty_success() {
        let tools = desk();
        let result = call(&tools, "find_orders", json!({"status": "CANCELLED"})).await;
        assert_eq!(
            result,
            json!({"content": [], "structuredContent": {"result": []}, "isError": false})
        );
        let found = call(&tools, "find_orders", json!({"status": "SHIPPED"})).await;
        let listed: Vec<OrderSummary> =
            serde_json::from_str(found["content"][0]["text"].as_str().unwrap()).unwrap();
        let ids: Vec<&str> = listed.iter().map(|o| o.order_id.as_str()).collect();
        assert_eq!(ids, ["ORD-2026-00050", "ORD-2026-00043"]);
    }

    #[tokio::test]
    async fn a_source_that_is_down_gives_partial_results() {
        let tools = desk();
        let result = call(&tools, "track_order", json!({"orderId": "ORD-2026-00050"})).await;
        assert_eq!(category(&result), "transient");
        let structured = &result["structuredContent"];
        assert_eq!(structured["isRetryable"], true);
        assert_eq!(structured["retryAfterSeconds"], 30);
        assert_eq!(structured["partial_results"]["order"]["status"], "SHIPPED");
        assert_eq!(
            structured["partial_results"]["shipment"]["carrier"],
            "SlowFreight"
        );
        assert_eq!(
            structured["attempted_query"],
            json!({"tool": "track_order", "arguments": {"orderId": "ORD-2026-00050"}})
        );
        let ok = call(&tools, "track_order", json!({"orderId": "ORD-2026-00043"})).await;
        assert_eq!(
            ok["structuredContent"]["carrierStatus"],
            "In transit, Lyon hub, 2026-11-29"
        );
    }

    /// The errors page shows this transient error in full: the same result, a text the
    /// page shortens ("...") read as its beginning.
    #[tokio::test]
    async fn the_errors_page_shows_the_transient_result_as_it_is() {
        /// Whether `shown` is `got`, but for texts `shown` cuts short with "...".
        fn shows(shown: &Value, got: &Value) -> bool {
            match (shown, got) {
                (Value::String(shown), Value::String(got)) => match shown.strip_suffix("...") {
                    Some(start) => got.starts_with(start),
                    None => shown == got,
                },
                (Value::Array(shown), Value::Array(got)) => {
                    shown.len() == got.len() && shown.iter().zip(got).all(|(s, g)| shows(s, g))
                }
                (Value::Object(shown), Value::Object(got)) => {
                    shown.len() == got.len()
                        && shown
                            .iter()
                            .all(|(k, s)| got.get(k).is_some_and(|g| shows(s, g)))
                }
                _ => shown == got,
            }
        }
        let page = include_str!("../docs/errors.md");
        let at = page
            .find("The transient one, in full")
            .expect("the page shows it");
        let block = page[at..].split("```json\n").nth(1).unwrap();
        let shown: Value = serde_json::from_str(block.split("```").next().unwrap()).unwrap();
        let got = call(&desk(), "track_order", json!({"orderId": "ORD-2026-00050"})).await;
        assert!(
            shows(&shown, &got),
            "the errors page does not show:\n{got:#}"
        );
    }

    #[tokio::test]
    async fn the_file_database_is_seeded_once() {
        let path = std::env::temp_dir().join(format!("orders-test-{}.sqlite3", std::process::id()));
        let path = path.to_str().unwrap();
        let _ = std::fs::remove_file(path);
        {
            let tools = toolbox(Desk::open(path, "C-1001").unwrap());
            let result = call(
                &tools,
                "cancel_order",
                json!({"orderId": "ORD-2026-00044", "reason": "changed my mind"}),
            )
            .await;
            assert_eq!(result["isError"], false);
        }
        // Reopened: the cancellation is still there, the seed did not run again.
        let tools = toolbox(Desk::open(path, "C-1001").unwrap());
        let result = call(&tools, "find_orders", json!({"status": "CANCELLED"})).await;
        assert!(
            result["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("ORD-2026-00044")
        );
        std::fs::remove_file(path).unwrap();
    }
}
