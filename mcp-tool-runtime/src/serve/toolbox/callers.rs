//! Who may call a toolbox's tools: the scopes each declares, what a call without a
//! verified caller is served as, and the list each caller sees.

use serde_json::Value;

use crate::ask::Reach;
use crate::caller::{Caller, ToolScopes, Unverified};
use crate::describe::Tool;
use crate::result::CallToolResult;

use super::calls::completed;
use super::{CallError, Toolbox};

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// What a call that comes with no verified caller is served as (over stdio, or
    /// HTTP without authorization): see [`Unverified`]. By default a tool that declares
    /// scopes, or whose handler takes a [`Caller`], is refused it and not listed; say
    /// here what the server's operator chose instead.
    ///
    /// ```
    /// use mcp_tool::{Caller, McpTool, ToolError, Toolbox, Unverified};
    /// use serde::Deserialize;
    /// use serde_json::json;
    ///
    /// /// Find an order.
    /// #[derive(McpTool, Deserialize)]
    /// #[mcp_tool(scopes("orders:read"))]
    /// struct FindOrder { id: String }
    ///
    /// async fn find(args: FindOrder) -> Result<String, ToolError> { Ok(args.id) }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let refused = Toolbox::new().tool(find);
    /// assert!(refused.call("find_order", json!({"id": "A1"})).await.unwrap().is_error);
    ///
    /// // Over stdio, the operator says whose server it is.
    /// let alice = Caller::new("alice").with_scopes(["orders:read"]);
    /// let served = Toolbox::new().unverified_calls(Unverified::As(alice)).tool(find);
    /// assert!(!served.call("find_order", json!({"id": "A1"})).await.unwrap().is_error);
    /// # });
    /// ```
    pub fn unverified_calls(mut self, unverified: Unverified) -> Self {
        self.unverified = unverified;
        self
    }

    /// The scopes each tool declares (`#[mcp_tool(scopes(...))]`), for a transport to
    /// check a token against before a call's arguments are read.
    pub fn tool_scopes(&self) -> ToolScopes {
        let mut out = ToolScopes::new();
        for (tool, scopes) in self.list().iter().zip(&self.scopes) {
            if !scopes.is_empty() {
                out = out.tool(&tool.name, scopes);
            }
        }
        out
    }

    /// Whether the `i`th tool is listed to `caller` (`None`: no verified caller).
    pub(crate) fn permits(&self, i: usize, caller: Option<&Caller>) -> bool {
        crate::caller::permits(self.scopes[i], caller, &self.unverified)
    }

    /// The tools `caller` may call (`None`: a call without a verified caller), as
    /// `tools/list` lists them to it.
    pub fn list_to(&self, caller: Option<&Caller>) -> Vec<&Tool> {
        (self.list().iter().enumerate())
            .filter(|(i, _)| self.permits(*i, caller))
            .map(|(_, tool)| tool)
            .collect()
    }

    /// [`Toolbox::call`] by `caller`, verified by the transport: the tool's scopes are
    /// checked against the caller's, and a handler that takes a [`Caller`] gets it.
    pub async fn call_as(
        &self,
        caller: &Caller,
        name: &str,
        arguments: Value,
    ) -> Result<CallToolResult, CallError> {
        let profile = self.profile_for(None);
        let answer = self.call_reaching_as(Some(caller), profile, name, arguments, Reach::Nobody);
        Ok(completed(name, answer.await?))
    }
}
