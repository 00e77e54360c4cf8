//! Reading a Describe listing to its end, the same way on every signed-API cloud: page after
//! page until the listing's total is read (the service may hold fewer per page than asked), a
//! short page when it gives no total, or an empty page. Past a bound the listing is an error,
//! never a silent cut.

/// How many items a page is asked for, and how many pages are read at most.
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    pub per_page: usize,
    pub max_pages: usize,
}

/// Every item of a listing, through `page`: given how many items were read so far and the
/// page's number from 1, one page's items and the listing's total when it says. Past the
/// bound, `too_many` of the items read is the error.
pub async fn read_all<T, E, F>(
    bound: Bound,
    mut page: impl FnMut(usize, usize) -> F,
    too_many: impl FnOnce(usize) -> E,
) -> Result<Vec<T>, E>
where
    F: Future<Output = Result<(Vec<T>, Option<u64>), E>>,
{
    let mut all = Vec::new();
    for number in 1..=bound.max_pages {
        let (items, total) = page(all.len(), number).await?;
        let got = items.len();
        all.extend(items);
        let done = match total {
            Some(total) => all.len() as u64 >= total,
            None => got < bound.per_page,
        };
        if done || got == 0 {
            return Ok(all);
        }
    }
    Err(too_many(all.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUND: Bound = Bound {
        per_page: 2,
        max_pages: 3,
    };

    /// Pages of `total` numbered items, two a page, saying the total or not.
    async fn listing(total: usize, says: bool) -> Result<Vec<usize>, usize> {
        read_all(
            BOUND,
            |read, _| {
                let items: Vec<usize> = (read..total.min(read + 2)).collect();
                let told = says.then_some(total as u64);
                std::future::ready(Ok((items, told)))
            },
            |read| read,
        )
        .await
    }

    #[tokio::test]
    async fn a_listing_is_read_to_its_end_and_no_further() {
        assert_eq!(listing(5, true).await, Ok(vec![0, 1, 2, 3, 4]));
        assert_eq!(listing(5, false).await, Ok(vec![0, 1, 2, 3, 4]));
        assert_eq!(listing(4, false).await, Ok(vec![0, 1, 2, 3]));
        assert_eq!(listing(0, true).await, Ok(vec![]));
        // Past three pages: the error says how many were read, never a short list.
        assert_eq!(listing(7, true).await, Err(6));
    }
}
