//! The `book_flight` tool of the README, shared by the examples that serve it.

use mcp_tool::{McpTool, ToolError};
use serde::{Deserialize, Serialize};

/// Book a flight for one or more passengers.
#[derive(McpTool, Deserialize)]
#[mcp_tool(name = "book_flight", destructive = false, open_world)]
pub struct BookFlight {
    /// Departure airport, IATA code.
    #[validate(regex(
        pattern = r"^[A-Z]{3}$",
        hint = "Use the three-letter IATA code, such as CDG."
    ))]
    pub origin: String,
    /// Arrival airport, IATA code.
    #[validate(regex(
        pattern = r"^[A-Z]{3}$",
        hint = "Use the three-letter IATA code, such as JFK."
    ))]
    pub destination: String,
    // Only the user knows it: asked of them when missing or not in the future.
    #[validate(ask = "Which day do you fly?", future_date(format = "%d/%m/%Y"))]
    pub departure_date: String,
    #[validate(enum = ["economy", "premium_economy", "business", "first"])]
    pub cabin: String,
    #[validate(range(min = 1, max = 9))]
    pub passengers: u8,
    /// Where the confirmation is sent.
    #[validate(email)]
    pub email: Option<String>,
}

/// A confirmed booking.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Booking {
    /// The booking reference.
    confirmation: String,
    route: String,
    date: String,
    cabin: String,
    passengers: u8,
    /// Where the confirmation was sent, if anywhere.
    confirmation_sent_to: Option<String>,
}

/// The handler: it runs only with arguments that passed every check.
pub async fn book_flight(flight: BookFlight) -> Result<Booking, ToolError> {
    if flight.origin == flight.destination {
        return Err(ToolError::business(format!(
            "A flight from {} to {} goes nowhere.",
            flight.origin, flight.destination
        ))
        .with_hint("Ask the user where they want to go."));
    }
    Ok(Booking {
        confirmation: "PNR-7XQ2KD".into(),
        route: format!("{} -> {}", flight.origin, flight.destination),
        date: flight.departure_date,
        cabin: flight.cabin,
        passengers: flight.passengers,
        confirmation_sent_to: flight.email,
    })
}
