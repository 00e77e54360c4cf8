//! The columns of a FOCUS 1.0 dataset, in one order: the 43 columns of the specification under
//! their 1.0 names, then the pre-1.0 spellings that the reference validator 1.0.0 still reads
//! (`Provider`, `Publisher`, `InvoiceIssuer`, `ResourceID`, which its "1.0" rule set requires,
//! and `ChargeType`, which its `SkuPriceId` rule queries and fails without), each carrying the
//! same value as its 1.0 partner.
//!
//! Sources: the column list is the specification's, tag v1.0,
//! <https://github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec/tree/v1.0/specification/columns>;
//! the legacy names are those of the "1.0" rule set in
//! <https://github.com/finopsfoundation/focus_validator/blob/v1.0.0/focus_validator/rules/version_sets.yaml>.

macro_rules! columns {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// One column of the dataset.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Column {
            $($(#[$doc])* $variant,)*
        }

        impl Column {
            /// Every column, in the order the header lists them.
            pub const ALL: &'static [Column] = &[$(Column::$variant,)*];

            /// The column's name in the header.
            pub fn name(self) -> &'static str {
                match self {
                    $(Column::$variant => $name,)*
                }
            }
        }
    };
}

columns! {
    AvailabilityZone = "AvailabilityZone",
    BilledCost = "BilledCost",
    BillingAccountId = "BillingAccountId",
    BillingAccountName = "BillingAccountName",
    BillingCurrency = "BillingCurrency",
    BillingPeriodEnd = "BillingPeriodEnd",
    BillingPeriodStart = "BillingPeriodStart",
    ChargeCategory = "ChargeCategory",
    ChargeClass = "ChargeClass",
    ChargeDescription = "ChargeDescription",
    ChargeFrequency = "ChargeFrequency",
    ChargePeriodEnd = "ChargePeriodEnd",
    ChargePeriodStart = "ChargePeriodStart",
    CommitmentDiscountCategory = "CommitmentDiscountCategory",
    CommitmentDiscountId = "CommitmentDiscountId",
    CommitmentDiscountName = "CommitmentDiscountName",
    CommitmentDiscountStatus = "CommitmentDiscountStatus",
    CommitmentDiscountType = "CommitmentDiscountType",
    ConsumedQuantity = "ConsumedQuantity",
    ConsumedUnit = "ConsumedUnit",
    ContractedCost = "ContractedCost",
    ContractedUnitPrice = "ContractedUnitPrice",
    EffectiveCost = "EffectiveCost",
    InvoiceIssuerName = "InvoiceIssuerName",
    ListCost = "ListCost",
    ListUnitPrice = "ListUnitPrice",
    PricingCategory = "PricingCategory",
    PricingQuantity = "PricingQuantity",
    PricingUnit = "PricingUnit",
    ProviderName = "ProviderName",
    PublisherName = "PublisherName",
    RegionId = "RegionId",
    RegionName = "RegionName",
    ResourceId = "ResourceId",
    ResourceName = "ResourceName",
    ResourceType = "ResourceType",
    ServiceCategory = "ServiceCategory",
    ServiceName = "ServiceName",
    SkuId = "SkuId",
    SkuPriceId = "SkuPriceId",
    SubAccountId = "SubAccountId",
    SubAccountName = "SubAccountName",
    Tags = "Tags",
    /// `ProviderName` under its pre-1.0 name.
    LegacyProvider = "Provider",
    /// `PublisherName` under its pre-1.0 name.
    LegacyPublisher = "Publisher",
    /// `InvoiceIssuerName` under its pre-1.0 name.
    LegacyInvoiceIssuer = "InvoiceIssuer",
    /// `ResourceId` under its pre-1.0 spelling.
    LegacyResourceId = "ResourceID",
    /// `ChargeCategory` under its pre-1.0 name: the validator's `SkuPriceId_Nullable` rule
    /// (`rules/base_rule_definitions/SkuPriceId_Nullable.yaml`) selects on it.
    LegacyChargeType = "ChargeType",
}

/// How many columns the specification itself defines (the legacy spellings come after).
pub const SPEC_COLUMNS: usize = 43;

/// The header's names, in order.
pub fn header() -> Vec<&'static str> {
    Column::ALL.iter().map(|c| c.name()).collect()
}

impl Column {
    /// Where this column sits in a row.
    pub fn index(self) -> usize {
        self as usize
    }
}
