//! Reading a Describe listing page by page: CVM, CBS and VPC 2017-03-12 page by `Offset` and
//! `Limit`, and say how many items there are in all as `TotalCount`; the skeleton's [`paging`]
//! reads them to the end.

use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::TencentCloud;
use super::model::Listed;
use crate::provider::ProviderError;
use crate::provider::http::Repeat;
use crate::provider::rpc_cloud::paging::{self, Bound};

/// The most items a Describe page holds (`Limit` is at most 100 in CVM, CBS and VPC 2017-03-12).
const PAGE: usize = 100;
/// The most pages read of one listing: past it the listing is an error, not a silent cut.
const MAX_PAGES: usize = 50;

impl TencentCloud {
    /// Every item of a Describe listing: `Offset` from 0 by what was read, until `TotalCount`
    /// items are read (the service may hold fewer per page than asked) or a page is empty.
    /// More than [`MAX_PAGES`] pages is an error.
    pub(super) async fn pages<R: Listed + DeserializeOwned>(
        &self,
        action: &'static str,
        filter: &Value,
    ) -> Result<Vec<R::Item>, ProviderError> {
        let bound = Bound {
            per_page: PAGE,
            max_pages: MAX_PAGES,
        };
        let page = |offset: usize, _| {
            let mut body = filter.clone();
            body["Offset"] = json!(offset);
            body["Limit"] = json!(PAGE);
            async move {
                let reply: R = self.api.call(action, &body, Repeat::Safe).await?;
                let (items, total) = reply.page();
                Ok((items, Some(total)))
            }
        };
        let too_many = |read: usize| {
            let message = crate::t!(
                "rpc-too-many-pages",
                action = action,
                pages = MAX_PAGES.to_string(),
                read = read.to_string()
            );
            ProviderError::state("tencent", message).with_call(action)
        };
        paging::read_all(bound, page, too_many).await
    }
}
