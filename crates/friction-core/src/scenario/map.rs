//! A small ordered map: a sorted `Vec` with `BTreeMap`'s methods, for the scenario's few set values.
//!
//! Why not `BTreeMap`: its node code is compiled once per key and value type, and the four maps of
//! the scenario made ~32 KB of the page's wasm (bench/results/wasm-size.md); a handful of entries
//! needs no tree. Same order, same lookups, same equality.

use std::borrow::Borrow;
use std::ops::Index;

/// Keys in ascending order, each once, with their values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Map<K, V>(Vec<(K, V)>);

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Map(Vec::new())
    }
}

impl<K: Ord, V> Map<K, V> {
    /// An empty map.
    pub(crate) fn new() -> Self {
        Map(Vec::new())
    }

    fn find<Q: ?Sized + Ord>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub(crate) fn get<Q: ?Sized + Ord>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    pub(crate) fn get_mut<Q: ?Sized + Ord>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }

    pub(crate) fn contains_key<Q: ?Sized + Ord>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`; returns the value it replaced.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    pub(crate) fn remove<Q: ?Sized + Ord>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The keys in ascending order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &K> {
        self.0.iter().map(|(k, _)| k)
    }

    /// The entries in ascending key order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Ord + Borrow<Q>, Q: ?Sized + Ord, V> Index<&Q> for Map<K, V> {
    type Output = V;

    /// The value of `key`; panics where it is missing (callers index only keys they listed).
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("key in map")
    }
}

impl<'a, K, V> IntoIterator for &'a Map<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}
