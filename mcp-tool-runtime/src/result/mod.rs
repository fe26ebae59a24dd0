//! What a client receives: the result of a call, and every failure of one as a tool
//! execution error the model can act on.

mod call_result;
pub(crate) mod echo;
mod error;
mod location;
pub(crate) mod tool_failure;
mod unanswered;
mod violation;

pub(crate) use call_result::json_text;
pub use call_result::{CallToolResult, Content, REPAIRS_KEY};
pub(crate) use error::ErrorSorting;
pub use error::ToolError;
pub(crate) use location::{Location, Segment};
pub use tool_failure::TOOL_FAILURE_KEY;
pub(crate) use unanswered::Refusal;
pub use unanswered::Unanswered;
pub use violation::{ErrorCategory, Repair, Violation};
