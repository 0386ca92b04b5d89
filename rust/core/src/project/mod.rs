//! The run boundary: a runtime trace line becomes a redacted canonical record (what the
//! store keeps) and that record becomes the published line of the selected schema version
//! (`version`); `boundary` holds the per-run state and writes the terminal result,
//! `validate` says what a line must be, `text` holds the run's scrubbed streams.

mod boundary;
mod json;
mod text;
mod validate;
mod version;

pub use boundary::{
    count_lines, Boundary, BoundaryConfig, Finish, PendingArtifact, Record, Step, MAX_LINE,
};
pub use text::TOOL_OUTPUT_MAX;
pub(crate) use version::bounded;
pub use version::{
    project, project_run, Capabilities, SchemaVersion, COMPONENTS, RESIDENT_PROTOCOL_VERSION,
    WORKFLOW,
};
