//! What a handler takes and how it is called: the pieces of a call ([`FromCall`]),
//! each read from the call's parts before the handler runs (a piece that cannot be had
//! refuses the call then, never handed empty), and the [`Handler`] impl, written once for
//! any number of pieces up to five, the arguments last.

use std::future::Future;
use std::sync::Arc;

use crate::ask::Ask;
use crate::caller::Caller;
use crate::context::Context;
use crate::result::ToolError;

use super::progress::{Progress, Signals};

/// What a call hands its handler besides the arguments: each piece a handler takes is
/// read from it by [`FromCall`].
pub struct CallParts<S> {
    pub(crate) tool: &'static str,
    pub(crate) state: Arc<S>,
    #[cfg_attr(not(feature = "ask"), allow(dead_code))]
    pub(crate) ask: Ask,
    pub(crate) caller: Option<Caller>,
    pub(crate) context: Context,
    /// Empty without a transport (feature `rmcp`) to fill it.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) signals: Signals,
}

/// A piece of a call a handler may take, before its arguments: the server's state
/// (`Arc<S>`), the verified [`Caller`], the [`Ask`] of a handler that asks its user
/// (feature `ask`), the [`Context`] the call's dates are judged in, the call's
/// [`Progress`] to report how far the work got, and (feature `rmcp`) the `Cancelled`
/// signal of its task or request. A handler takes any of them, in any order, then the
/// arguments last, as axum's handlers take their extractors and then the body:
///
/// ```
/// use std::sync::Arc;
/// use mcp_tool::{Caller, McpTool, ToolError, Toolbox};
/// use serde::Deserialize;
///
/// struct Shop;
///
/// /// Find an order.
/// #[derive(McpTool, Deserialize)]
/// #[mcp_tool(scopes("orders:read"))]
/// struct FindOrder { id: String }
///
/// async fn find(caller: Caller, _shop: Arc<Shop>, args: FindOrder) -> Result<String, ToolError> {
///     Ok(format!("{} for {}", args.id, caller.subject()))
/// }
///
/// let tools = Toolbox::with_state(Shop).tool(find);
/// # let _ = tools;
/// ```
///
/// The next piece a handler may take is one impl of this trait. A piece that cannot be
/// had for a call refuses it before the handler runs: a [`Caller`] when the call has no
/// verified caller is a `permission` error, never an empty caller.
#[diagnostic::on_unimplemented(
    message = "a tool handler cannot take `{Self}` before its arguments",
    note = "a handler takes any of `Arc<S>` (the toolbox's state), `Caller`, `Ask` (feature `ask`), `Context`, `Progress` and `Cancelled` (feature `rmcp`), in any order, then the tool's arguments last"
)]
pub trait FromCall<S>: Sized + Send + 'static {
    /// Whether taking it means the handler may ask the user (the call then carries
    /// what a dialogue needs).
    #[doc(hidden)]
    const ASKS: bool = false;
    /// Whether taking it means the handler runs only for a verified caller.
    #[doc(hidden)]
    const CALLER: bool = false;
    /// The piece, from the parts of the call; or why the call is refused.
    fn from_call(parts: &CallParts<S>) -> Result<Self, ToolError>;
}

impl<S: Send + Sync + 'static> FromCall<S> for Arc<S> {
    fn from_call(parts: &CallParts<S>) -> Result<Self, ToolError> {
        Ok(Arc::clone(&parts.state))
    }
}

/// The verified caller (or the one the operator named, see
/// [`Unverified`](crate::caller::Unverified)); a call without one is refused before the
/// handler runs.
impl<S> FromCall<S> for Caller {
    const CALLER: bool = true;
    fn from_call(parts: &CallParts<S>) -> Result<Self, ToolError> {
        parts
            .caller
            .clone()
            .ok_or_else(|| crate::caller::no_caller(parts.tool, false))
    }
}

#[cfg(feature = "ask")]
impl<S> FromCall<S> for Ask {
    const ASKS: bool = true;
    fn from_call(parts: &CallParts<S>) -> Result<Self, ToolError> {
        Ok(parts.ask.clone())
    }
}

/// The clock and time zone the call's dates were judged in.
impl<S> FromCall<S> for Context {
    fn from_call(parts: &CallParts<S>) -> Result<Self, ToolError> {
        Ok(parts.context.clone())
    }
}

/// How far the handler's work got, said to whoever follows the call: the client that
/// sent a `progressToken`, or the task the call runs as.
impl<S> FromCall<S> for Progress {
    fn from_call(parts: &CallParts<S>) -> Result<Self, ToolError> {
        Ok(Progress::of(&parts.signals))
    }
}

/// An async function that can handle the tool `T`: it takes any pieces of the call
/// ([`FromCall`]: `Arc<S>`, [`Caller`], [`Ask`], [`Context`], `Progress`, `Cancelled`)
/// and the arguments `T` last, and returns `Result<O, ToolError>`. `M` only tells the
/// forms apart.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool handler",
    note = "a handler is an async fn taking any of `Arc<S>`, `Caller`, `Ask` (feature `ask`), `Context`, `Progress` and `Cancelled` (feature `rmcp`), then the tool's arguments last: `async fn(T)`, `async fn(Arc<S>, T)`, `async fn(Arc<S>, Caller, T)`, ...; it returns `Result<O, ToolError>` with `O: Serialize`"
)]
pub trait Handler<S, T, M>: Send + Sync + 'static {
    /// What a successful call returns.
    type Output;
    /// The handler's future.
    type Future: Future<Output = Result<Self::Output, ToolError>> + Send + 'static;
    /// Whether the handler takes an [`Ask`], and so may ask the user.
    #[doc(hidden)]
    const ASKS: bool = false;
    /// Whether the handler takes a [`Caller`], and so runs only for a verified one.
    #[doc(hidden)]
    const CALLER: bool = false;
    /// Runs the handler on the pieces it takes and `arguments`; or the refusal of a
    /// piece it cannot have.
    fn call(&self, parts: &CallParts<S>, arguments: T) -> Result<Self::Future, ToolError>;
}

/// The handler of each number of pieces before the arguments, written once.
macro_rules! handler {
    ($($piece:ident),*) => {
        impl<S, T, F, Fut, O, $($piece,)*> Handler<S, T, fn($($piece,)* T) -> O> for F
        where
            F: Fn($($piece,)* T) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
            $($piece: FromCall<S>,)*
        {
            type Output = O;
            type Future = Fut;
            const ASKS: bool = false $(|| $piece::ASKS)*;
            const CALLER: bool = false $(|| $piece::CALLER)*;
            #[allow(non_snake_case, unused_variables)]
            fn call(&self, parts: &CallParts<S>, arguments: T) -> Result<Fut, ToolError> {
                $(let $piece = $piece::from_call(parts)?;)*
                Ok(self($($piece,)* arguments))
            }
        }
    };
}

handler!();
handler!(A);
handler!(A, B);
handler!(A, B, C);
handler!(A, B, C, D);
handler!(A, B, C, D, E);
