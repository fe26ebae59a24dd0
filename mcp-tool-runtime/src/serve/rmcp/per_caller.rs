//! The caller of the `tools/list` being answered, for `structured(..).list_all()`:
//! rmcp's `#[tool_handler]` writes a `list_tools` that sees no caller, so the HTTP
//! server (`http::per_caller`) makes the list while the caller is known here.

use crate::caller::Caller;

tokio::task_local! {
    /// The verified caller a list is being made for.
    static LISTING_FOR: Caller;
}

/// The verified caller of the `tools/list` being answered, if the transport knows one
/// (see the module's doc): `structured(..).list_all()` lists it its own tools.
pub(crate) fn listing_for() -> Option<Caller> {
    LISTING_FOR.try_with(Caller::clone).ok()
}

/// Runs `future` (a handler making a list) knowing that the list is for `caller`.
#[cfg(feature = "http")]
pub(crate) async fn listing<F: std::future::Future>(caller: Caller, future: F) -> F::Output {
    LISTING_FOR.scope(caller, future).await
}
