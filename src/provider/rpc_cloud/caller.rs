//! What sends one signed-API cloud's calls: its HTTP client, its keys, its region and its
//! endpoints. The cloud adds its own calls to it (how a request is built, signed and read);
//! each attempt takes the keys current at the call and is built (and signed) afresh, and
//! answers are tried again as the cloud's codes say ([`judge`]).

use std::marker::PhantomData;

use super::cloud_error::CloudError;
use super::codes::{Codes, judge};
use crate::provider::ProviderError;
use crate::provider::env::KeyPair;
use crate::provider::http::{Http, HttpPolicy, HttpResponse, Repeat};
use crate::provider::role_keys::KeyStore;

/// The client of the cloud whose codes are `C`, calling the endpoints `E`.
pub struct Caller<C, E> {
    http: Http,
    keys: KeyStore,
    region: String,
    endpoint: E,
    codes: PhantomData<C>,
}

impl<C: Codes, E> Caller<C, E> {
    pub fn new(
        keys: KeyStore,
        region: String,
        endpoint: E,
        policy: HttpPolicy,
    ) -> Result<Self, ProviderError> {
        let http =
            Http::new(policy).map_err(|e| ProviderError::state(C::KIND.id(), e.to_string()))?;
        Ok(Caller {
            http,
            keys,
            region,
            endpoint,
            codes: PhantomData,
        })
    }

    pub fn region(&self) -> &str {
        &self.region
    }

    /// Where the calls go.
    pub fn endpoint(&self) -> &E {
        &self.endpoint
    }

    /// The provider's words as they are shown: never with a key of ours in them.
    pub fn redact(&self, text: &str) -> String {
        self.keys.redact(text)
    }

    /// Sends `action`, each attempt built by `build` with the current keys, and returns the
    /// answer whatever its status: reading it is the cloud's.
    pub async fn send(
        &self,
        action: &'static str,
        repeat: Repeat,
        build: impl Fn(&reqwest::Client, &KeyPair) -> reqwest::RequestBuilder,
    ) -> Result<HttpResponse, CloudError<C>> {
        let keys = self.keys.current().await.map_err(CloudError::Credentials)?;
        self.http
            .call(repeat, |client| build(client, &keys), judge::<C>)
            .await
            .map_err(|source| CloudError::Transport { action, source })
    }
}

/// The `host` header the client will send: the host, and the port when it is not the default.
pub fn host_of(url: &str) -> String {
    reqwest::Url::parse(url).map_or_else(
        |_| String::new(),
        |u| {
            let host = u.host_str().unwrap_or_default().to_string();
            match u.port() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_keep_a_non_default_port() {
        assert_eq!(host_of("http://127.0.0.1:8080/?a=b"), "127.0.0.1:8080");
        assert_eq!(host_of("http://127.0.0.1:8080/"), "127.0.0.1:8080");
        assert_eq!(
            host_of("https://ecs.cn-hangzhou.aliyuncs.com/?a=b"),
            "ecs.cn-hangzhou.aliyuncs.com"
        );
        assert_eq!(
            host_of("https://cvm.tencentcloudapi.com/"),
            "cvm.tencentcloudapi.com"
        );
    }
}
