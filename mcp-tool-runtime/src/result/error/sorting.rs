//! The errors of well-known types sorted once for the whole server: an SDK's "throttled"
//! is transient, its "forbidden" a permission error, its "no such key" a business one,
//! wherever a handler's `?` returns it. An error no sort takes stays unexpected.

use std::error::Error;
use std::fmt;
use std::sync::Arc;

use super::ToolError;

/// One sort: the error it makes of an error of its type, or `None` to leave it.
type Sort = dyn Fn(&(dyn Error + 'static)) -> Option<ToolError> + Send + Sync;

/// How many errors of a chain are looked at: a chain longer than this is a cycle or a
/// mistake, and is not walked to its end.
const CHAIN: usize = 32;

/// The sorts a server was given (see `Toolbox::sort_errors`), in the order given.
#[derive(Clone, Default)]
pub(crate) struct ErrorSorting {
    sorts: Vec<Arc<Sort>>,
}

impl fmt::Debug for ErrorSorting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ErrorSorting({} sorts)", self.sorts.len())
    }
}

impl ErrorSorting {
    /// No sorts: every unsorted error stays unexpected (an rmcp method's error outside
    /// `structured`).
    #[cfg(any(feature = "rmcp", test))]
    pub(crate) const NONE: &'static ErrorSorting = &ErrorSorting { sorts: Vec::new() };

    /// Adds `sort`, for errors of type `E`.
    pub(crate) fn add<E, F>(&mut self, sort: F)
    where
        E: Error + 'static,
        F: Fn(&E) -> Option<ToolError> + Send + Sync + 'static,
    {
        self.sorts
            .push(Arc::new(move |error: &(dyn Error + 'static)| {
                error.downcast_ref::<E>().and_then(&sort)
            }));
    }

    /// The error `error` is sorted into: the first sort, in the order given, that takes
    /// it, else the first that takes its source, and so on down its chain (an SDK's
    /// error wrapped in the author's context is found inside it).
    pub(crate) fn sort(&self, error: &(dyn Error + 'static)) -> Option<ToolError> {
        if self.sorts.is_empty() {
            return None;
        }
        let mut next = Some(error);
        for _ in 0..CHAIN {
            let error = next?;
            if let Some(sorted) = self.sorts.iter().find_map(|sort| sort(error)) {
                return Some(sorted);
            }
            next = error.source();
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::violation::ErrorCategory;

    #[derive(Debug)]
    struct Throttled;

    impl fmt::Display for Throttled {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("SlowDown: account 1234 over its rate")
        }
    }

    impl Error for Throttled {}

    #[derive(Debug)]
    struct Context(Throttled);

    impl fmt::Display for Context {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("listing the bucket")
        }
    }

    impl Error for Context {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn an_error_is_found_down_its_chain_and_others_are_left() {
        let mut sorting = ErrorSorting::default();
        sorting.add(|_: &Throttled| Some(ToolError::transient("The store is busy.")));
        let sorted = sorting.sort(&Context(Throttled)).unwrap();
        assert_eq!(sorted.category(), ErrorCategory::Transient);
        assert_eq!(sorted.message(), "The store is busy.");
        assert!(sorting.sort(&std::io::Error::other("x")).is_none());
        assert!(ErrorSorting::NONE.sort(&Throttled).is_none());
    }

    #[test]
    fn the_first_sort_given_that_takes_the_error_wins_and_none_passes_it_on() {
        let mut sorting = ErrorSorting::default();
        sorting.add(|_: &Context| None);
        sorting.add(|_: &Throttled| Some(ToolError::permission("inner")));
        sorting.add(|_: &Throttled| Some(ToolError::business("later")));
        assert_eq!(
            sorting.sort(&Context(Throttled)).unwrap().message(),
            "inner"
        );
    }
}
